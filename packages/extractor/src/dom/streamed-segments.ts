// React's streaming server rendering sends each part of a page that was still loading later in the document, in a
// hidden `<div id="S:1">`, with an inline script that moves it into its placeholder: `<template id="B:1">` for a
// Suspense boundary (whose fallback, "Loading…", it replaces) or `<template id="P:1">` for a segment. A browser shows
// every part in place at once; this does the same without running the script.
import { isComment, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';

import { contains, detach, elements, relink } from './walk.js';

/** A streamed part: `S:<id>`, after an optional identifier prefix (React's `identifierPrefix`). */
const SEGMENT = /^(.*)S:([0-9a-z]+)$/;

/** Its place: `B:<id>` (a boundary, followed by its fallback) or `P:<id>` (a segment). */
const PLACEHOLDER = /^(.*)([BP]):([0-9a-z]+)$/;

/**
 * Moves the content of every streamed part (`<div hidden id="S:1">`) to its placeholder (`<template id="B:1">` or
 * `<template id="P:1">` with the same prefix and id), as React's inline script does in the browser. A boundary's
 * fallback goes with the placeholder when React's comments mark it (`<!--$?-->` before the template, `<!--/$-->` after
 * the fallback). Parts without a placeholder stay where they are. Returns how many parts were placed.
 */
export function placeStreamedSegments(root: ParentNode): number {
  const segments = new Map<string, Element>();
  const placeholders = new Map<string, { template: Element; boundary: boolean }>();
  for (const el of elements(root)) {
    const id = el.attribs['id'];
    if (!id) continue;
    if (el.name === 'template') {
      const m = PLACEHOLDER.exec(id);
      if (m) placeholders.set(`${m[1]}:${m[3]}`, { template: el, boundary: m[2] === 'B' });
    } else if ('hidden' in el.attribs) {
      const m = SEGMENT.exec(id);
      if (m) segments.set(`${m[1]}:${m[2]}`, el);
    }
  }
  let placed = 0;
  for (const [key, segment] of segments) {
    const place = placeholders.get(key);
    const parent = place?.template.parent;
    // a placeholder inside its own part would take the part into itself
    if (!place || !parent || contains(segment, place.template)) continue;
    const siblings = parent.children;
    const start = siblings.indexOf(place.template);
    const end = place.boundary ? fallbackEnd(siblings, start) : start + 1;
    const content = [...segment.children];
    detach(segment);
    for (const gone of siblings.slice(start, end)) gone.parent = gone.prev = gone.next = null;
    relink(parent, [...siblings.slice(0, start), ...content, ...siblings.slice(end)]);
    placed++;
  }
  return placed;
}

/**
 * Where a pending boundary's fallback ends among `siblings`: at its closing `<!--/$-->` when `<!--$?-->` opens it right
 * before the placeholder at `start` (nested boundaries counted); otherwise right after the placeholder, the fallback
 * staying (a page saved without comments still reads "Loading…" there, as the page's shell did).
 */
function fallbackEnd(siblings: AnyNode[], start: number): number {
  let before = start - 1;
  while (before >= 0 && isBlank(siblings[before]!)) before--;
  const opener = siblings[before];
  if (!opener || !isComment(opener) || opener.data !== '$?') return start + 1;
  let depth = 0;
  for (let i = start + 1; i < siblings.length; i++) {
    const node = siblings[i]!;
    if (!isComment(node)) continue;
    if (node.data === '/$') {
      if (depth === 0) return i;
      depth--;
    } else if (node.data === '$' || node.data === '$?' || node.data === '$!') depth++;
  }
  return start + 1;
}

function isBlank(node: AnyNode): boolean {
  return isText(node) && node.data.trim() === '';
}
