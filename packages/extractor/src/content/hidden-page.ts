// A page whose content is hidden until a script shows it (a password or age gate over a shop, a deferred render, a
// `<main aria-hidden>`): the hidden block that holds most of the page's text is its content.
import { isTag, isText, type AnyNode, type Element } from 'domhandler';

import { DROP_TAGS } from './tags.js';

/** Characters a hidden block must hold to be the page's content: less is a widget's, a menu's or a label's text. */
const MIN_TEXT = 1000;

/** How many times the visible page's text the hidden block must hold: a page that shows its content has more. */
const MIN_RATIO = 3;

/** Share of a hidden block's text that may be link text: more is a menu (a mega menu, site map), whatever its name. */
const MAX_LINK_SHARE = 0.7;

/** Roles of overlays and menus: their hidden text (a cookie policy, a country list, a menu) is never the page's. */
const OVERLAY_ROLES: ReadonlySet<string> = new Set(['dialog', 'alertdialog', 'navigation', 'menu', 'menubar']);

/** Class and id words of overlays, menus (`modal fade`, `country-selector-modal`, `off-canvas-menu`, `nav-drawer`). */
const OVERLAY_WORDS =
  /(?:^|[\s_-])(?:modal|dialog|popup|popover|overlay|drawer|off-?canvas|menu|nav|navigation)(?:$|[\s_-])/i;

/**
 * Among the hidden elements that the prune step found (none inside another), the one holding the page's content: the
 * largest that is not an overlay or a menu, when it holds at least `MIN_TEXT` characters and `MIN_RATIO` times the
 * text the page shows (`visibleText`, in characters, scripts and styles left out), and at most `MAX_LINK_SHARE` of it
 * is link text. Null when the page shows its content.
 */
export function hiddenPageContent(hidden: readonly Element[], visibleText: number): Element | null {
  let best: Element | null = null;
  let bestText = 0;
  let bestLinks = 0;
  for (const el of hidden) {
    const [size, links] = textLength(el);
    if (size > bestText && !isOverlay(el)) {
      best = el;
      bestText = size;
      bestLinks = links;
    }
  }
  const shown = bestText >= MIN_TEXT && bestText >= MIN_RATIO * visibleText && bestLinks <= MAX_LINK_SHARE * bestText;
  return shown ? best : null;
}

function isOverlay(el: Element): boolean {
  const a = el.attribs;
  if (a['aria-modal'] === 'true' || el.name === 'nav' || el.name === 'dialog' || el.name === 'aside') return true;
  if (a['role'] !== undefined && OVERLAY_ROLES.has(a['role'])) return true;
  return OVERLAY_WORDS.test(`${a['class'] ?? ''} ${a['id'] ?? ''}`);
}

/**
 * Characters of the element's text (`trimmedLength` of each text node), scripts and styles left out, and how many of
 * them are link text.
 */
function textLength(root: Element): [number, number] {
  let n = 0;
  let links = 0;
  const stack: [AnyNode, boolean][] = root.children.map((c) => [c, false]);
  while (stack.length) {
    const [node, inLink] = stack.pop()!;
    if (isText(node)) {
      const size = trimmedLength(node.data);
      n += size;
      if (inLink) links += size;
    } else if (isTag(node) && !DROP_TAGS.has(node.name)) {
      for (const c of node.children) stack.push([c, inLink || node.name === 'a']);
    }
  }
  return [n, links];
}

/** `text.trim().length` without building the trimmed string: only the whitespace at the two ends is read. */
export function trimmedLength(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return end - start;
}

/** Spaces, tabs, line breaks and the no-break space. */
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 160;
