import { describe, expect, it } from 'vitest';

import { calloutOf, renderCallout, titleRepeatsKind } from './callouts.js';
import { htmlToMarkdown } from './index.js';

// Admonitions and callouts as documentation generators write them (from memory of their templates), read back as
// GitHub alerts (docs/qa-converter-second-pass.md).
const md = (html: string, rawHtml = false): string =>
  htmlToMarkdown(html, { baseUrl: 'https://docs.acme.test/guide/page', rawHtml });

describe('callouts: the rule table', () => {
  it("finds each generator's callout and its kind", () => {
    expect(calloutOf('div', { class: 'admonition note' })).toEqual({ word: 'note', alert: 'NOTE' });
    expect(calloutOf('div', { class: 'admonition admonition-tip alert alert--success' })).toEqual({
      word: 'tip',
      alert: 'TIP',
    });
    expect(calloutOf('div', { class: 'theme-admonition theme-admonition-danger admonition_xJq3' })?.alert).toBe(
      'CAUTION',
    );
    expect(calloutOf('div', { class: 'info custom-block' })?.alert).toBe('NOTE');
    expect(calloutOf('div', { class: 'markdown-alert markdown-alert-important' })?.alert).toBe('IMPORTANT');
    expect(calloutOf('div', { class: 'hint hint-success' })?.alert).toBe('TIP');
    expect(calloutOf('div', { class: 'notecard warning' })?.alert).toBe('WARNING');
    expect(calloutOf('aside', { class: 'starlight-aside starlight-aside--caution' })?.alert).toBe('CAUTION');
    expect(calloutOf('div', { class: 'admonition attention' })?.alert).toBe('WARNING');
    expect(calloutOf('div', { class: 'admonition error' })?.alert).toBe('CAUTION');
    // a kind GitHub has no alert for: a callout all the same, written as a quote with its title
    expect(calloutOf('div', { class: 'admonition seealso' })).toEqual({ word: 'seealso', alert: undefined });
    // role="note" needs a kind: slider plugins put it on every slide
    expect(calloutOf('div', { role: 'note', class: 'n2-ss-slide--focus' })).toBeUndefined();
    expect(calloutOf('div', { role: 'note', class: 'callout warning' })?.alert).toBe('WARNING');
    // not callouts: a collapsible VitePress block, a span, a page's own "alert" or "hint" words
    expect(calloutOf('details', { class: 'details custom-block' })).toBeUndefined();
    // Drupal's custom blocks are page content, not callouts
    expect(calloutOf('div', { class: 'clearfix text-formatted field custom-block field__item' })).toBeUndefined();
    expect(calloutOf('div', { class: 'alert alert-info', role: 'note' })?.alert).toBe('NOTE');
    expect(calloutOf('span', { class: 'admonition note' })).toBeUndefined();
    expect(calloutOf('div', { class: 'alert alert-info' })).toBeUndefined();
    expect(calloutOf('div', { class: 'hint-text' })).toBeUndefined();
  });

  it('drops a title that only names the kind, keeps one that says more', () => {
    const note = { word: 'note', alert: 'NOTE' as const };
    for (const title of ['Note', 'NOTE', 'note:', 'Info', '']) expect(titleRepeatsKind(title, note)).toBe(true);
    expect(titleRepeatsKind('Before you start', note)).toBe(false);
    expect(titleRepeatsKind('DANGER', { word: 'danger', alert: 'CAUTION' })).toBe(true);
    expect(renderCallout(note, 'Note', 'Text.')).toBe('> [!NOTE]\n> Text.');
    expect(renderCallout(note, 'Before you start', 'A.\n\nB.')).toBe(
      '> [!NOTE]\n> **Before you start**\n>\n> A.\n>\n> B.',
    );
    expect(renderCallout({ word: 'seealso', alert: undefined }, 'See also', 'X.')).toBe('> **See also**\n>\n> X.');
    expect(renderCallout({ word: undefined, alert: undefined }, '', 'X.')).toBe('> X.');
    expect(renderCallout(note, '', '')).toBe('');
  });
});

describe('callouts as GitHub alerts, by generator', () => {
  it('MkDocs Material and Sphinx: `admonition` with an `admonition-title`', () => {
    const mkdocs =
      '<p>Before.</p><div class="admonition note"><p class="admonition-title">Note</p>' +
      '<p>Widgets are <em>cached</em>.</p><ul><li>one</li></ul></div><p>After.</p>';
    expect(md(mkdocs)).toBe('Before.\n\n> [!NOTE]\n> Widgets are *cached*.\n>\n> - one\n\nAfter.');
    const titled =
      '<div class="admonition warning"><p class="admonition-title">Do not run this in production</p><p>It drops the table.</p></div>';
    expect(md(titled)).toBe('> [!WARNING]\n> **Do not run this in production**\n>\n> It drops the table.');
    const sphinx =
      '<div class="admonition seealso"><p class="admonition-title">See also</p><p>Module <a class="reference internal" ' +
      'href="pickle.html"><code class="xref py py-mod docutils literal notranslate"><span class="pre">pickle</span>' +
      '</code></a></p></div>';
    expect(md(sphinx)).toBe('> **See also**\n>\n> Module [`pickle`](https://docs.acme.test/guide/pickle.html)');
  });

  it('Docusaurus 3 and 2: the heading with its icon', () => {
    const v3 =
      '<div class="theme-admonition theme-admonition-tip admonition_xJq3 alert alert--success">' +
      '<div class="admonitionHeading_Gvgb"><span class="admonitionIcon_Rf37"><svg viewBox="0 0 12 16"><path d="M0"/></svg>' +
      '</span>tip</div><div class="admonitionContent_BuS1"><p>Use <code>npm ci</code> in CI.</p></div></div>';
    expect(md(v3)).toBe('> [!TIP]\n> Use `npm ci` in CI.');
    const v2 =
      '<div class="admonition admonition-caution alert alert--warning"><div class="admonition-heading"><h5>' +
      '<span class="admonition-icon"><svg></svg></span>Breaking change</h5></div>' +
      '<div class="admonition-content"><p>The API moved.</p></div></div>';
    expect(md(v2)).toBe('> [!CAUTION]\n> **Breaking change**\n>\n> The API moved.');
  });

  it('VitePress custom blocks, GitHub alerts, GitBook hints, MDN notecards, Starlight asides', () => {
    expect(
      md('<div class="danger custom-block"><p class="custom-block-title">DANGER</p><p>Irreversible.</p></div>'),
    ).toBe('> [!CAUTION]\n> Irreversible.');
    expect(
      md(
        '<div class="markdown-alert markdown-alert-important" dir="auto"><p class="markdown-alert-title" dir="auto">' +
          '<svg class="octicon octicon-report mr-2" viewBox="0 0 16 16"><path d="M0"></path></svg>Important</p>' +
          '<p dir="auto">Read this first.</p></div>',
      ),
    ).toBe('> [!IMPORTANT]\n> Read this first.');
    expect(md('<div class="hint hint-info"><p>GitBook says hi.</p></div>')).toBe('> [!NOTE]\n> GitBook says hi.');
    expect(md('<div class="notecard note"><p><strong>Note:</strong> This is an experimental API.</p></div>')).toBe(
      '> [!NOTE]\n> This is an experimental API.',
    );
    // MDN's deprecated card: no alert kind, its words kept
    expect(md('<div class="notecard deprecated"><p><strong>Deprecated:</strong> Do not use.</p></div>')).toBe(
      '> **Deprecated:** Do not use.',
    );
    expect(
      md(
        '<aside aria-label="Tip" class="starlight-aside starlight-aside--tip"><p class="starlight-aside__title" ' +
          'aria-hidden="true"><svg></svg>Tip</p><section class="starlight-aside__content"><p>Pin it.</p></section></aside>',
      ),
    ).toBe('> [!TIP]\n> Pin it.');
    expect(md('<div role="note"><p>A slide.</p></div>')).toBe('A slide.');
    // Hugo Docsy (Kubernetes docs): Bootstrap's alert with the note role and its heading
    expect(
      md('<div class="alert alert-warning" role="note"><h4 class="alert-heading">Caution:</h4>Back up first.</div>'),
    ).toBe('> [!WARNING]\n> **Caution:**\n>\n> Back up first.');
  });

  it('writes a callout the same in raw-HTML mode, and keeps a nested one quoted twice', () => {
    const html = '<div class="admonition tip"><p class="admonition-title">Tip</p><p>A.</p></div>';
    expect(md(html, true)).toBe('> [!TIP]\n> A.');
    const nested =
      '<div class="admonition note"><p class="admonition-title">Note</p><p>Outer.</p>' +
      '<div class="admonition danger"><p class="admonition-title">Danger</p><p>Inner.</p></div></div>';
    expect(md(nested)).toBe('> [!NOTE]\n> Outer.\n>\n> > [!CAUTION]\n> > Inner.');
  });
});

describe('callouts: Asciidoctor and collapsible MkDocs admonitions', () => {
  it("Asciidoctor's admonition table: the label cell dropped when it names the kind, the content quoted", () => {
    const labelled =
      '<div class="admonitionblock note"><table><tr><td class="icon"><div class="title">Note</div></td>' +
      '<td class="content">Read this first.</td></tr></table></div>';
    expect(md(labelled)).toBe('> [!NOTE]\n> Read this first.');
    // the icon font's variant has no text in its first cell; a block title in the content stays
    const icon =
      '<div class="admonitionblock warning"><table><tr><td class="icon"><i class="fa icon-warning" title="Warning">' +
      '</i></td><td class="content"><div class="title">Mind the gap</div><div class="paragraph"><p>Text one.</p>' +
      '</div></td></tr></table></div>';
    expect(md(icon)).toBe('> [!WARNING]\n> Mind the gap\n>\n> Text one.');
  });

  it("MkDocs's collapsible admonition (`details` with a kind class): its summary is the title", () => {
    const details = '<details class="note"><summary>Click to open</summary><p>Hidden body text.</p></details>';
    expect(md(details)).toBe('> [!NOTE]\n> **Click to open**\n>\n> Hidden body text.');
    expect(md('<details class="warning" open><summary>Warning</summary><p>Body.</p></details>')).toBe(
      '> [!WARNING]\n> Body.',
    );
    // not a callout: VitePress's details block, a details without a kind
    expect(md('<details class="details custom-block"><summary>Details</summary><p>Body.</p></details>')).toBe(
      'Details\n\nBody.',
    );
    expect(md('<details><summary>More</summary><p>Body.</p></details>')).toBe('More\n\nBody.');
  });
});
