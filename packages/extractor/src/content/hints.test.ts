import { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';

import { looksLikeChrome, looksLikeComments, looksLikeOverlay, looksLikePostChrome } from './hints.js';

const el = (name: string, attribs: Record<string, string>) => new Element(name, attribs);

describe('class/id hints', () => {
  it('read the class words without taxonomy tokens, whichever attribute names the element', () => {
    // a taxonomy token says the post's category, not the element's role: its words never count
    expect(looksLikeComments(el('div', { class: 'post category-comments' }))).toBe(false);
    expect(looksLikeComments(el('div', { class: 'post  comments-area' }))).toBe(true);
    expect(looksLikeComments(el('div', { id: 'comments' }))).toBe(true);
    expect(looksLikeComments(el('div', { class: 'tag-x', id: 'comments' }))).toBe(true);
    expect(looksLikePostChrome(el('div', { class: 'message\tsignature' }))).toBe(true);
    expect(looksLikePostChrome(el('div', { class: 'tag-signature' }))).toBe(false);
    expect(looksLikeOverlay(el('div', { class: 'modal' }))).toBe(true);
    expect(looksLikeOverlay(el('div', { class: 'topic-modal' }))).toBe(false);
    // a class that also says content is not an overlay, nor chrome
    expect(looksLikeOverlay(el('div', { class: 'modal', id: 'article' }))).toBe(false);
    expect(looksLikeChrome(el('div', { class: 'sidebar' }))).toBe(true);
    expect(looksLikeChrome(el('div', { class: 'sidebar', id: 'content' }))).toBe(false);
    expect(looksLikeChrome(el('div', { class: 'format-sidebar' }))).toBe(false);
    expect(looksLikeChrome(el('div', { id: 'disclaimer' }))).toBe(true);
    expect(looksLikeChrome(el('div', { class: 'card' }))).toBe(false);
  });
});
