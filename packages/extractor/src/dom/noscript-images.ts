// A `<noscript>` copy of an image beside its script-only placeholder (Medium, many WordPress themes: a `data:` or
// empty `<img>` that a script fills, and the real `<img>` for readers without scripts): the copy stands in for the
// placeholder. Every other `<noscript>` stays as it is (the cleaning passes drop it).
import { isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { lacksRealSource } from './lazy-images.js';
import { elements, previousElement } from './walk.js';

/** The most elements a wrapper may hold beside the `<noscript>` and still be the image's own frame. */
const SMALL_WRAPPER = 4;

/** The noscript's one image (an `<img>`, or a `<picture>` holding one) when it holds nothing else, with a source. */
function fallbackImage(noscript: Element): { node: Element; img: Element } | undefined {
  const kids = onlyElements(noscript);
  if (kids?.length !== 1) return undefined;
  const node = kids[0]!;
  let img: Element | undefined = node.name === 'img' ? node : undefined;
  if (node.name === 'picture') {
    const parts = onlyElements(node);
    const imgs = parts?.filter((el) => el.name === 'img');
    if (imgs?.length === 1 && parts!.every((el) => el.name === 'img' || el.name === 'source')) img = imgs[0];
  }
  return img && !lacksRealSource(img.attribs) ? { node, img } : undefined;
}

/** The element children of `parent`, or undefined when it holds text beyond whitespace. */
function onlyElements(parent: ParentNode): Element[] | undefined {
  const out: Element[] = [];
  for (const child of parent.children) {
    if (isTag(child)) out.push(child);
    else if (isText(child) && child.data.trim() !== '') return undefined;
  }
  return out;
}

/**
 * The placeholder `<img>` the noscript stands beside: its previous element, or the one image of a small wrapper that
 * holds no text and no image with a real source (a frame that already shows the image needs no fallback).
 */
function placeholderOf(noscript: Element): Element | undefined {
  const prev = previousElement(noscript);
  if (prev?.name === 'img') return lacksRealSource(prev.attribs) ? prev : undefined;
  const wrapper = noscript.parent;
  if (!wrapper || !isTag(wrapper)) return undefined;
  let found: Element | undefined;
  let count = 0;
  const stack: AnyNode[] = [...wrapper.children];
  while (stack.length) {
    const node = stack.pop()!;
    if (node === noscript) continue;
    if (isText(node) && node.data.trim() !== '') return undefined;
    if (!isTag(node)) continue;
    if (++count > SMALL_WRAPPER) return undefined;
    if (node.name === 'img') {
      if (found || !lacksRealSource(node.attribs)) return undefined;
      found = node;
    }
    stack.push(...node.children);
  }
  return found;
}

function replace(old: Element, node: Element): void {
  const parent = old.parent!;
  const index = parent.children.indexOf(old);
  parent.children[index] = node;
  node.parent = parent;
  node.prev = old.prev;
  node.next = old.next;
  if (old.prev) old.prev.next = node;
  if (old.next) old.next.prev = node;
  old.parent = old.prev = old.next = null;
}

function remove(node: Element): void {
  const parent = node.parent!;
  parent.children.splice(parent.children.indexOf(node), 1);
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = node.prev = node.next = null;
}

/** Puts each `<noscript>` image in place of the placeholder `<img>` beside it, in place; returns how many. */
export function standInNoscriptImages(root: ParentNode): number {
  const noscripts: Element[] = [];
  for (const el of elements(root)) if (el.name === 'noscript') noscripts.push(el);
  let count = 0;
  for (const noscript of noscripts) {
    const fallback = fallbackImage(noscript);
    const placeholder = fallback && placeholderOf(noscript);
    if (!fallback || !placeholder) continue;
    // the placeholder's alt is the page's text for the image when the copy has none
    if (fallback.img.attribs.alt === undefined && placeholder.attribs.alt !== undefined) {
      fallback.img.attribs.alt = placeholder.attribs.alt;
    }
    remove(noscript);
    replace(placeholder, fallback.node);
    count++;
  }
  return count;
}
