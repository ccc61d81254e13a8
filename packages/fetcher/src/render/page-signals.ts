/**
 * One lexical pass over an HTML page that measures what the render judge weighs: how much readable text there is
 * outside the page's furniture, the scripts, loading placeholders, empty mount points, `<noscript>` text and the
 * data scripts that may hold the page's text. No DOM is built: the pass runs on every page fetched over HTTP, so it
 * must cost little next to extraction (a jump from tag to tag, `tag-scan.ts`, and a shallow element stack).
 */

import { closingTag, nextTag } from './tag-scan.js';

/** What one pass over a page found. */
export interface PageSignals {
  /** Characters of visible text in the document (outside scripts, styles, templates, `<noscript>`). */
  textChars: number;
  /**
   * Characters of the main-content candidate: visible text outside the furniture (navigation, page header and
   * footer, sidebars, dialogs, cookie bars, buttons and form controls) and outside loading placeholders.
   */
  contentChars: number;
  /** Loading placeholders: skeleton/spinner/loader classes, `aria-busy="true"`, "Loading…" text. */
  placeholders: number;
  /** An empty client-side mount point (`<div id="root"></div>`, `__next`, `__nuxt`, `<app-root>`, ...). */
  emptyMount: boolean;
  /** Executable scripts (`<script>` without a data `type`), inline or not. */
  scripts: number;
  /** Executable scripts with a `src`. */
  externalScripts: number;
  /** Characters of inline executable script. */
  inlineScriptChars: number;
  /** Text of the `<noscript>` elements, tags stripped. */
  noscriptText: string;
  /** Bodies of the JSON data scripts (`application/json`: `__NEXT_DATA__`, `__NUXT_DATA__`, ...). */
  dataScripts: string[];
  /** Bodies of the JSON-LD scripts. */
  jsonLd: string[];
  /** Inline scripts that assign a state object (`window.__INITIAL_STATE__ = ...`, `__NUXT__`, ...). */
  stateScripts: string[];
  /**
   * A `<meta http-equiv="refresh">` that sends the page on at once (no delay) to a URL: what a browser shows is that
   * URL's page. Its target as written (relative or absolute), or `undefined`.
   */
  immediateRefresh: string | undefined;
  /** The visible text (built on first use: only the hydration check reads it). */
  visibleText(): string;
  /**
   * False when the pass stopped at `enoughContent` characters of content (`PageSignalsOptions`): every count then
   * covers the page up to that point only.
   */
  complete: boolean;
}

/** How much of the page the pass reads. */
export interface PageSignalsOptions {
  /**
   * Stop once the main-content candidate holds this many characters: a reader that needs no more (the render
   * judge, when no reason can hold past it) is spared the rest of the page. @default Infinity (the whole page)
   */
  enoughContent?: number;
}

const RAW_TEXT = new Set('script style template textarea title xmp iframe noembed noframes noscript'.split(' '));
const VOID = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
/** Elements whose text is page furniture, not content (`header` and `footer` only outside a sectioning element). */
const FURNITURE_TAGS = new Set('nav header footer aside dialog menu button select option label svg'.split(' '));
/** Sectioning elements: a `<header>` or `<footer>` inside one belongs to it (a card's or an article's heading). */
const SECTIONING = new Set(['article', 'main', 'section']);
/** Elements that hold the page whatever their classes say (`<body class="loading has-sidebar cookies-not-set">`). */
const NEVER_FURNITURE = new Set(['html', 'body', 'main', 'article']);
/** Elements whose attributes are not worth reading (list items, paragraphs, phrasing, cells). */
const PLAIN = new Set(
  ['a b i em strong small code time abbr sup sub', 'td th tr li p dt dd h1 h2 h3 h4 h5 h6 picture figure figcaption']
    .join(' ')
    .split(' '),
);
const FURNITURE_ROLES =
  /^(?:navigation|banner|contentinfo|complementary|dialog|alertdialog|menu|menubar|toolbar|search|tablist)$/i;
/** Class or id words of furniture: whole words only (`content-sidebar-wrap` holds the content too). */
const FURNITURE_WORDS =
  /(?:^|\s)(?:(?:(?:site|page|main|global|top|primary)[-_]?)?(?:nav|navbar|navigation|menu|sidebar|sidenav|toolbar|breadcrumbs?|footer|header|topbar|masthead)|(?:cookie|cookies|consent|gdpr|cc)(?:[-_]?(?:banner|bar|notice|popup|wall|law|box|window|modal|consent))?|modal|drawer)(?=\s|$)/i;
const PLACEHOLDER_WORDS =
  /skeleton|spinner|shimmer|preloader|(?:^|\s)(?:loader|loading|is-loading|placeholder-(?:glow|wave))(?=\s|$)/i;
const PLACEHOLDER_TEXT =
  /^(?:loading|please wait|one moment|chargement|cargando|carregando|caricamento|wird geladen|laden|ładowanie|загрузка|読み込み中|加载中|載入中)[\s.…]*$/i;
const MOUNT_IDS = /^(?:root|app|__next|__nuxt|___gatsby|svelte|q-app|ember-app|react-root|main-app)$/i;
const STATE_ASSIGNMENT =
  /\b(?:window\.)?__(?:INITIAL_STATE|PRELOADED_STATE|APOLLO_STATE|NUXT|INITIAL_DATA|STATE|DATA|APP_STATE|REDUX_STATE)__\s*=/;
const JS_TYPES = /^(?:module|text\/javascript|application\/javascript|text\/babel|jsx)$/;

const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13) || code === 160;

/**
 * The value of attribute `name` in a tag's attribute text (`class="a b"`, `id=x`), or `undefined`. Read by hand:
 * it runs for most tags of every page.
 */
function attribute(raw: string, name: string): string | undefined {
  for (let at = raw.indexOf(name); at >= 0; at = raw.indexOf(name, at + name.length)) {
    if (at > 0 && !isSpace(raw.charCodeAt(at - 1))) continue;
    let i = at + name.length;
    while (i < raw.length && isSpace(raw.charCodeAt(i))) i++;
    if (raw.charCodeAt(i) !== 61 /* = */) continue;
    i++;
    while (i < raw.length && isSpace(raw.charCodeAt(i))) i++;
    const quote = raw.charCodeAt(i);
    if (quote === 34 /* " */ || quote === 39 /* ' */) {
      const end = raw.indexOf(quote === 34 ? '"' : "'", i + 1);
      return raw.slice(i + 1, end < 0 ? raw.length : end);
    }
    let end = i;
    while (end < raw.length && !isSpace(raw.charCodeAt(end))) end++;
    return raw.slice(i, end);
  }
  return undefined;
}

// Flags of an open element.
const FURNITURE = 1;
const PLACEHOLDER = 2;
const SECTION = 4;
const MOUNT = 8;

/** What an opening tag makes of its element (`FURNITURE | PLACEHOLDER | SECTION | MOUNT`). */
function classify(tag: string, raw: string, inSection: boolean): number {
  if (FURNITURE_TAGS.has(tag)) return inSection && (tag === 'header' || tag === 'footer') ? 0 : FURNITURE;
  let flags = SECTIONING.has(tag) ? SECTION : tag === 'app-root' ? MOUNT : 0;
  if (raw.length < 4 || PLAIN.has(tag)) return flags;
  const id = attribute(raw, 'id');
  if (id !== undefined && MOUNT_IDS.test(id)) flags |= MOUNT;
  if (NEVER_FURNITURE.has(tag)) return flags;
  const names = `${attribute(raw, 'class') ?? ''} ${id ?? ''}`;
  if (FURNITURE_WORDS.test(names)) flags |= FURNITURE;
  if (PLACEHOLDER_WORDS.test(names)) flags |= PLACEHOLDER;
  if (raw.includes('aria-')) {
    if (attribute(raw, 'aria-modal')?.toLowerCase() === 'true') flags |= FURNITURE;
    if (attribute(raw, 'aria-busy')?.toLowerCase() === 'true') flags |= PLACEHOLDER;
  }
  if (raw.includes('role')) {
    const role = attribute(raw, 'role');
    if (role !== undefined && FURNITURE_ROLES.test(role)) flags |= FURNITURE;
  }
  return flags;
}

/** How far up the stack a closing tag looks for its element (bounds the work on broken or hostile nesting). */
const MAX_CLOSE_SEARCH = 64;
const MAX_DEPTH = 4096;

/** Measures `html` in one pass (see `PageSignals`). */
export function pageSignals(html: string, { enoughContent = Infinity }: PageSignalsOptions = {}): PageSignals {
  let textChars = 0;
  let contentChars = 0;
  let placeholders = 0;
  let emptyMount = false;
  let scripts = 0;
  let externalScripts = 0;
  let inlineScriptChars = 0;
  const noscript: string[] = [];
  const dataScripts: string[] = [];
  const jsonLd: string[] = [];
  const stateScripts: string[] = [];
  /** Start and end offsets of the text runs. */
  const runs: number[] = [];
  let immediateRefresh: string | undefined;

  // The open elements: tag, flags and (for mount points) the text count when they opened.
  const tags: string[] = [];
  const flags: number[] = [];
  const textAtOpen: number[] = [];
  let furniture = 0;
  let placeholder = 0;
  let sections = 0;

  const text = (from: number, to: number) => {
    while (from < to && isSpace(html.charCodeAt(from))) from++;
    while (to > from && isSpace(html.charCodeAt(to - 1))) to--;
    const length = to - from;
    if (length === 0) return;
    textChars += length;
    runs.push(from, to);
    if (placeholder > 0) return;
    if (length < 40 && PLACEHOLDER_TEXT.test(html.slice(from, to))) placeholders++;
    else if (furniture === 0) contentChars += length;
  };

  const close = (tag: string) => {
    const floor = Math.max(0, tags.length - MAX_CLOSE_SEARCH);
    let at = tags.length - 1;
    while (at >= floor && tags[at] !== tag) at--;
    if (at < floor) return;
    while (tags.length > at) {
      tags.pop();
      const f = flags.pop()!;
      const from = textAtOpen.pop()!;
      if (f & FURNITURE) furniture--;
      if (f & PLACEHOLDER) placeholder--;
      if (f & SECTION) sections--;
      if (f & MOUNT && textChars === from) emptyMount = true;
    }
  };

  const script = (raw: string, body: string) => {
    const type = attribute(raw, 'type')?.trim().toLowerCase() ?? '';
    if (type === 'application/ld+json') jsonLd.push(body);
    else if (type === 'application/json' || type === 'text/json') dataScripts.push(body);
    else if (type === '' || JS_TYPES.test(type)) {
      scripts++;
      if (attribute(raw, 'src') !== undefined) externalScripts++;
      inlineScriptChars += body.length;
      if (body.length > 200 && STATE_ASSIGNMENT.test(body.slice(0, 2000))) stateScripts.push(body);
    }
  };

  let last = 0;
  let complete = true;
  for (let m = nextTag(html, 0); m; m = nextTag(html, last)) {
    const start = m.start;
    text(last, start);
    // contentChars only grows: what was counted up to here is what the whole pass counts up to here
    if (contentChars >= enoughContent) {
      complete = false;
      last = start;
      break;
    }
    last = m.end;
    const name = m.name;
    if (name === undefined) {
      if (!m.comment) continue; // a doctype or processing instruction
      // A comment: skip to its end (an unterminated one runs to the end of the document).
      const end = html.indexOf('-->', start + 4);
      last = end < 0 ? html.length : end + 3;
      continue;
    }
    const tag = name.toLowerCase();
    if (m.closing) {
      close(tag);
      continue;
    }
    const raw = m.raw;
    if (RAW_TEXT.has(tag)) {
      const found = closingTag(html, tag, last);
      const body = html.slice(last, found ? found.index : html.length);
      if (tag === 'script') script(raw, body);
      else if (tag === 'noscript') noscript.push(body);
      last = found ? found.index + found.length : html.length;
      continue;
    }
    if (tag === 'meta' && immediateRefresh === undefined) immediateRefresh = refreshTarget(raw);
    if (VOID.has(tag) || raw.endsWith('/') || tags.length >= MAX_DEPTH) continue;
    // Inside furniture or a placeholder nothing counts as content, so what the element is does not matter.
    const f = furniture > 0 || placeholder > 0 ? 0 : classify(tag, raw, sections > 0);
    tags.push(tag);
    flags.push(f);
    textAtOpen.push(textChars);
    if (f & FURNITURE) furniture++;
    if (f & PLACEHOLDER) {
      placeholder++;
      placeholders++;
    }
    if (f & SECTION) sections++;
  }
  if (complete) text(last, html.length);

  let visible: string | undefined;
  return {
    textChars,
    contentChars,
    placeholders,
    emptyMount,
    scripts,
    externalScripts,
    inlineScriptChars,
    noscriptText: noscript.length ? tagsStripped(noscript.join(' ')) : '',
    dataScripts,
    jsonLd,
    stateScripts,
    complete,
    immediateRefresh,
    visibleText() {
      if (visible === undefined) {
        const parts: string[] = [];
        for (let i = 0; i < runs.length; i += 2) parts.push(html.slice(runs[i], runs[i + 1]));
        visible = parts.join(' ');
      }
      return visible;
    },
  };
}

/** The target of a `<meta http-equiv="refresh" content="0; url=…">` (a delay of 0, as browsers read it). */
function refreshTarget(raw: string): string | undefined {
  if (!/\shttp-equiv\s*=\s*["']?\s*refresh\b/i.test(raw)) return undefined;
  const content = /\scontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(raw);
  const value = content ? (content[1] ?? content[2] ?? content[3] ?? '') : '';
  const parsed = /^\s*0+(?:\.\d*)?\s*[;,]\s*(?:url\s*=\s*)?(['"]?)(.+?)\1\s*$/i.exec(value);
  return parsed?.[2] || undefined;
}

function tagsStripped(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
