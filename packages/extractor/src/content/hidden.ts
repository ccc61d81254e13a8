// Whether an element is hidden from readers, and the hidden elements that are page text all the same (collapsed
// disclosure panels: FAQ answers, tabs, "read more" text; React's streamed segments).
import { isTag, isText, type Element } from 'domhandler';

import { previousElement } from '../dom/walk.js';

import { isQuestionToggle } from './question-toggles.js';
import { HEADING_TAGS } from './tags.js';

/**
 * Class words of text shown only to screen readers ("Regular price", "Reactions:"), not on the page, also behind a
 * namespace (`usa-sr-only`, `u-hiddenVisually`, CSS modules' `styles_srOnly__6uNpq`).
 */
const SCREEN_READER_ONLY =
  /(?:^|[\s_-])(?<!not-)(?:sr-?only|visually[-_]?hidden|hidden-?visually|screen-?reader-?(?:text|only)|screenreader|element-invisible|assistive-text|show-for-sr)(?:$|[\s_-])/i;

/**
 * Whether a class names screen-reader-only text. A BEM modifier (`field--label-visually_hidden`: the field's label is
 * hidden, not the field) says nothing about the element itself, so only the part of a token before `--` counts.
 */
function isScreenReaderOnly(cls: string): boolean {
  if (!SCREEN_READER_ONLY.test(cls)) return false;
  for (const token of cls.split(/\s+/)) {
    const cut = token.indexOf('--');
    if (SCREEN_READER_ONLY.test(cut > 0 ? token.slice(0, cut) : token)) return true;
  }
  return false;
}

/** Class words of disclosure widgets whose collapsed panels hold page text (FAQ answers, tabs). */
const PANEL =
  /(?:^|[\s_-])(?:accordions?|collapse|collapsible|panel|tabpanel|tab-?content|faqs?|answer|expander|expandable)(?:$|[\s_-])/i;

/** The same without the bare `panel`, which also names off-canvas menus and drawers hidden with `hidden`. */
const STRICT_PANEL = /(?:^|[\s_-])(?:accordions?|collapse|collapsible|tabpanel|tab-?content|faqs?|answer)(?:$|[\s_-])/i;

/**
 * A collapsed accordion or tab panel: `aria-hidden` only until the reader opens it, and its text (FAQ answers,
 * specifications, code in other languages) is part of the page. Known by its role, its class words or its header.
 */
function isCollapsedPanel(el: Element, strict = false): boolean {
  const role = el.attribs['role'];
  if (role === 'region' || role === 'tabpanel') return true;
  if (followsAccordionHeader(el) || answersQuestionToggle(el)) return true;
  const cls = el.attribs['class'];
  return cls !== undefined && (strict ? STRICT_PANEL : PANEL).test(cls);
}

/** A collapsed disclosure toggle: a `<button aria-expanded="false">`. */
function isCollapsedToggle(el: Element): boolean {
  return el.name === 'button' && el.attribs['aria-expanded'] === 'false';
}

/**
 * Whether the element comes right after an accordion header: a heading whose only element is a collapsed toggle
 * (the WAI-ARIA accordion pattern, `<h3><button aria-expanded="false">Weight</button></h3><div hidden>…`), whatever
 * the panel's class (CSS-in-JS names such as `css-1k075w5` say nothing). A bare toggle does not count: a "Read more"
 * button before a hidden copy of text shown elsewhere on the page is one.
 */
function followsAccordionHeader(el: Element): boolean {
  // only whitespace and comments between the heading and the panel: other text is not part of the pattern
  const prev = previousElement(el);
  if (!prev || !HEADING_TAGS.has(prev.name)) return false;
  let only: Element | null = null;
  for (const c of prev.children) {
    if (!isTag(c)) continue;
    if (only) return false;
    only = c;
  }
  return only !== null && isCollapsedToggle(only);
}

/**
 * Whether the element is the panel that a FAQ question's collapsed toggle right before it controls (`<button
 * aria-expanded="false" aria-controls="faq-0">What is …?</button><div id="faq-0" aria-hidden="true">`): the answer.
 * A bare "Read more" toggle's panel (often a copy of the text above it) stays hidden.
 */
function answersQuestionToggle(el: Element): boolean {
  const id = el.attribs['id'];
  if (id === undefined) return false;
  const prev = previousElement(el);
  return prev !== null && isCollapsedToggle(prev) && prev.attribs['aria-controls'] === id && isQuestionToggle(prev);
}

/** Id of a React streaming SSR segment (`S:0`, `S:1a`). */
const REACT_STREAMED = /^S:[0-9a-z]+$/i;

/** Whether the element is hidden from readers (`hidden`, `aria-hidden`, inline `display:none`, screen-reader-only). */
export function isHidden(el: Element): boolean {
  const a = el.attribs;
  // React streaming SSR sends suspended content in `<div hidden id="S:1">`, which its inline script shows at once
  if ('hidden' in a) return !REACT_STREAMED.test(a['id'] ?? '') && !isCollapsedPanel(el, true);
  if (a['aria-hidden'] === 'true' && !isCollapsedPanel(el)) return true;
  const cls = a['class'];
  if (cls !== undefined && isScreenReaderOnly(cls)) return true;
  const style = a['style'];
  return (
    style !== undefined &&
    /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style) &&
    !isCollapsedPanel(el) &&
    !isFormulaCopy(el)
  );
}

/**
 * A formula's MathML hidden for screen readers beside the image that shows it (MediaWiki's
 * `<span style="display: none"><math alttext="…">` before its `<img class="mwe-math-fallback-image-inline">`, which
 * the markdown skips): the formula's only text on the page.
 */
function isFormulaCopy(el: Element): boolean {
  let math = false;
  for (const c of el.children) {
    if (isText(c) && c.data.trim() === '') continue;
    if (!isTag(c) || c.name !== 'math' || math) return false;
    math = true;
  }
  return math;
}
