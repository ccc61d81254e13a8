import { joinBlocks, prefixLines } from './blocks.js';
import type { Budget } from './budget.js';
import type { Capture } from './capture.js';
import { CodeCapture, isGutter, languageOf, PreCapture } from './code.js';
import { Container, type MarkKind } from './container.js';
import { feedHtml, type HtmlSink } from './drivers.js';
import { collapseWhitespace, escapeBrackets } from './escape.js';
import { type ListItem, renderList } from './lists.js';
import { isMathScript, MathCapture } from './math.js';
import {
  isGfmTable,
  isVoid,
  planRaw,
  RawCapture,
  rawKind,
  serializeRaw,
  startTag,
  type AttributeFilter,
  type RawPlan,
} from './raw-html.js';
import { RubyCapture } from './ruby.js';
import { mayHoldTex, texOf } from './tex-source.js';
import { alignOf, colspanOf, renderTable, rowspanOf, type TableModel, type TableRow } from './tables.js';
import * as T from './tags.js';
import { Output } from './output.js';
import { formatDestination, formatTitle, UrlResolver } from './urls.js';

export interface ConverterOptions {
  baseUrl?: string;
  /** The page's own URL (`MarkdownOptions.pageUrl`); absent: the base URL. */
  pageUrl?: string;
  removeBase64Images: boolean;
  /** Elements markdown has no syntax for are written as HTML, and empty or nested marks are kept. */
  rawHtml: boolean;
  budget: Budget;
  /** `<iframe srcdoc>` nesting level. */
  depth?: number;
}

type Frame = number | { close(): void };
const NONE = 0;
const BOUNDARY = 1;
const MARK = 2;
const SUP = 3;
const PARA = 4;

/** What a base64 image's URL becomes with `removeBase64Images` (reference §10.6). */
const BASE64_REMOVED = '<Base64-Image-Removed>';

/** Quotes, lists, tables and definitions nested deeper than this convert as plain blocks (keeps output linear). */
const MAX_NESTING = 16;
/** Inline marks (emphasis, strike, sup/sub) open at once in one container beyond this write nothing. */
const MAX_MARKS = 16;
/** Text nodes longer than this are converted in slices, with a budget check between them. */
const TEXT_SLICE = 1 << 20;
const MAX_IFRAME_DEPTH = 2;

const LANGUAGE_HINT = /(?:^|\s)(?:language-|lang-|highlight-|brush:)/;
/** The label naming the language in a code block's wrapper (VitePress's `<span class="lang">ts</span>`). */
const CODE_LABEL = /(?:^|\s)lang(?:\s|$)/;
const SKIP_LINK_TEXT =
  /^skip (?:to (?:the )?(?:main |primary |page )?(?:content|navigation|menu|search)|navigation|search)$/i;
/** Link text nothing of which shows: empty, or only zero-width and other format characters (`\u200b`). */
const INVISIBLE_TEXT = /^[\p{Cf}\s]*$/u;
/** Text with no letter or digit: the `#`, `¶`, `§` or link icon of a heading's permalink. */
const SYMBOL_TEXT = /^[^\p{L}\p{N}]*$/u;
/** Link text that is one image without alt text: a permalink's icon (`<img src="anchorlink-icon.png">`). */
const ICON_IMAGE = /^!\[\]\([^\s()]*\)$/;
const FOOTNOTE_FRAGMENT = /^(?:user-content-)?(?:fn|footnote|cite_note|note|ftn|endnote)/i;
const FOOTNOTE_BACKREF = /^(?:user-content-)?(?:fnref|cite_ref|footnote-ref|ftnref)/i;

interface ListFrame {
  ordered: boolean;
  start?: number;
  reversed: boolean;
  keepEmpty: boolean;
  items: ListItem[];
  gap: Container;
  parent: Container;
}

interface TableFrame {
  model: TableModel;
  gap: Container;
  parent: Container;
  row: TableRow | null;
  head: boolean;
}

function integer(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : undefined;
}

/** Escapes a trailing `#` run that CommonMark would read as a closing sequence. */
function headingText(text: string): string {
  if (!text.endsWith('#')) return text;
  if (/^#+$/.test(text)) return '\\' + text;
  return text.replace(/(\s)(#+)$/, '$1\\$2');
}

/**
 * Turns a stream of start tags, text and end tags into markdown in one pass. Structure that needs look-ahead
 * (link text, headings, list items, table cells) is held in small containers until its element ends.
 */
export class Converter implements HtmlSink {
  readonly #options: ConverterOptions;
  readonly #budget: Budget;
  readonly #urls: UrlResolver;
  readonly #output = new Output();
  readonly #root = new Container('root', '\\\n', (block) => this.#output.add(block));
  readonly #containers: Container[] = [this.#root];
  #cur: Container = this.#root;
  readonly #frames: Frame[] = [];
  readonly #lists: ListFrame[] = [];
  readonly #tables: TableFrame[] = [];
  readonly #hints: { depth: number; tables: number; language: string }[] = [];
  readonly #footnotes = new Map<string, string>();
  #capture: Capture | null = null;
  #captured: (() => void) | null = null;
  #nesting = 0;
  #cells = 0;
  #sup = 0;
  #paragraphs = 0;
  /** A recorded TeX-source element is being replayed as ordinary content (nothing in it is recorded again). */
  #texReplay = false;
  /** The label of the footnote whose `<dt>` was the last term (docutils 0.17): its `<dd>` is the note. */
  #noteTerm: string | undefined;
  /** The `id` of the heading or `<dt>` being converted: a link to it from inside is its permalink. */
  #selfId: string | undefined;
  /** Raw-HTML mode: the recorded subtree being replayed, and the index of the start tag being replayed. */
  #plan: RawPlan | null = null;
  #planIndex = -1;
  readonly #attributeFilter: AttributeFilter;

  constructor(options: ConverterOptions) {
    this.#options = options;
    this.#budget = options.budget;
    this.#urls = new UrlResolver(options.baseUrl);
    this.#attributeFilter = (element, name, value) => {
      if (name !== 'href' && name !== 'src') return value;
      const url = value.trim();
      if (/^data:/i.test(url)) return element === 'img' ? this.#dataImage(url) : value;
      return this.#urls.resolve(url);
    };
  }

  open(name: string, attribs: Record<string, string>): boolean {
    this.#budget.tick();
    if (this.#capture) return this.#capture.open(name, attribs);
    const cls = attribs.class;
    // MathJax 3's container is classed `MathJax` like MathJax 2's visual copies, but holds the MathML (its visual
    // copy, `mjx-math`, is skipped by name)
    if (cls !== undefined && T.SKIP_CLASS.test(cls) && name !== 'mjx-container') return false;
    if (cls !== undefined && mayHoldTex(name, cls) && !this.#texReplay) return this.#openTexSource(name, attribs);
    const cur = this.#cur;
    const kind = T.TAGS.get(name) ?? T.INLINE;
    if (this.#options.rawHtml) {
      const raw = rawKind(name, kind, attribs);
      if (raw !== undefined) {
        if (!cur.inlineOnly && this.#nesting < MAX_NESTING && (raw !== 'inline' || this.#atBlockLevel(cur))) {
          const handled = this.#openRawBlock(name, attribs, raw === 'table');
          if (handled !== undefined) return handled;
        } else if (raw === 'inline') return this.#openRawInline(name, attribs, cur);
      }
    }
    switch (kind) {
      case T.INLINE:
        if (cls !== undefined && this.#inCodeWrapper() && CODE_LABEL.test(cls)) return false;
        this.#frames.push(NONE);
        if (cls !== undefined && LANGUAGE_HINT.test(cls)) this.#hint(attribs);
        return true;
      case T.SKIP:
        return false;
      case T.BLOCK:
        if (attribs.id !== undefined && this.#footnotes.size > 0 && !cur.inlineOnly) {
          const label = this.#footnotes.get(attribs.id);
          if (label !== undefined) return this.#openFootnote(label, cur);
        }
        cur.boundary();
        this.#frames.push(BOUNDARY);
        if (cls !== undefined && LANGUAGE_HINT.test(cls)) this.#hint(attribs);
        return true;
      case T.PARAGRAPH:
        cur.sawParagraph = true;
        cur.boundary();
        this.#frames.push(PARA);
        this.#paragraphs++;
        return true;
      case T.TERM:
        return this.#openTerm(attribs.id, cur);
      case T.BREAK:
        cur.hardBreak();
        return false;
      case T.RULE:
        if (cur.inlineOnly) cur.boundary();
        else cur.pushBlock({ kind: 'hr', text: '---' });
        return false;
      case T.HEADING:
        return this.#openHeading(name, attribs.id, cur);
      case T.LINK:
        return this.#openLink(attribs, cur);
      case T.IMAGE:
        this.#image(attribs, cur);
        return false;
      case T.EMPHASIS:
        return this.#openMark('em', cur);
      case T.STRONG:
        return this.#openMark('strong', cur);
      case T.STRIKE:
        return this.#openMark('del', cur);
      case T.SUPERSCRIPT:
        this.#openMark('sup', cur);
        this.#frames[this.#frames.length - 1] = SUP;
        this.#sup++;
        return true;
      case T.SUBSCRIPT:
        return this.#openMark('sub', cur);
      case T.CODE:
        return this.#openCode(new CodeCapture());
      case T.PRE:
        return this.#openPre(attribs, cur);
      case T.LIST:
      case T.ORDERED_LIST:
        return this.#openList(kind === T.ORDERED_LIST, attribs, cur);
      case T.ITEM:
        return this.#openItem(attribs, cur);
      case T.QUOTE:
        return this.#openQuote(cur);
      case T.DEFINITION:
        return this.#openDefinition(cur);
      case T.TABLE:
        // older docutils write a footnote as a one-row table (`<table class="docutils footnote" id="id4">`)
        if (attribs.id !== undefined && this.#footnotes.has(attribs.id) && !cur.inlineOnly) {
          return this.#openFootnote(this.#footnotes.get(attribs.id)!, cur);
        }
        return this.#openTable(attribs, cur);
      case T.CAPTION:
        return this.#openCaption(cur);
      case T.TABLE_SECTION:
        return this.#openTableSection(name, cur);
      case T.ROW:
        return this.#openRow(cur);
      case T.CELL:
        return this.#openCell(name, attribs, cur);
      case T.MATH:
        return this.#openMath(new MathCapture(attribs));
      case T.SCRIPT:
        return this.#openScript(attribs);
      case T.INPUT:
        if (attribs.type?.toLowerCase() === 'checkbox' && cur.kind === 'item' && !cur.hasInline && !cur.blocks.length) {
          cur.raw(attribs.checked !== undefined ? '[x]' : '[ ]', false, true);
        }
        return false;
      case T.BASE:
        if (attribs.href !== undefined) this.#urls.setBaseElement(attribs.href);
        return false;
      case T.IFRAME:
        this.#iframe(attribs, cur);
        return false;
      case T.QUOTATION:
        // a browser draws the quotation marks of `<q>`; without them the words read as the writer's own
        cur.text('"');
        this.#frames.push({ close: () => this.#cur.text('"') });
        return true;
      case T.RUBY: {
        const ruby = new RubyCapture();
        return this.#startCapture(ruby, () => this.#cur.text(ruby.finish()));
      }
      default:
        this.#frames.push(NONE);
        return true;
    }
  }

  text(data: string): void {
    if (this.#capture) {
      this.#capture.text(data);
      return;
    }
    if (data.length <= TEXT_SLICE) {
      this.#cur.text(data);
      return;
    }
    for (let i = 0; i < data.length;) {
      let end = Math.min(i + TEXT_SLICE, data.length);
      if (end < data.length) {
        const space = data.lastIndexOf(' ', end);
        if (space > i + TEXT_SLICE / 2) end = space + 1;
      }
      this.#cur.text(data.slice(i, end));
      this.#budget.check();
      i = end;
    }
  }

  close(name: string): void {
    this.#budget.tick();
    const capture = this.#capture;
    if (capture) {
      if (capture.close(name)) {
        const done = this.#captured!;
        this.#capture = null;
        this.#captured = null;
        done();
      }
      return;
    }
    const frame = this.#frames.pop();
    if (frame === undefined) return;
    if (typeof frame !== 'number') frame.close();
    else if (frame === BOUNDARY) this.#cur.boundary();
    else if (frame === PARA) {
      this.#paragraphs--;
      this.#cur.boundary();
    } else if (frame === MARK) this.#cur.closeMark();
    else if (frame === SUP) {
      this.#sup--;
      this.#cur.closeMark();
    }
    const hints = this.#hints;
    while (hints.length > 0 && hints[hints.length - 1]!.depth > this.#frames.length) hints.pop();
  }

  /** The markdown of everything fed so far (closing whatever is still open). */
  finish(): string {
    for (let guard = 0; this.#capture && guard < 1_000_000; guard++) this.close('');
    while (this.#frames.length > 0) this.close('');
    this.#root.flushParagraph();
    this.#budget.check();
    return this.#output.toString();
  }

  // Containers and frames.

  #push(container: Container): void {
    this.#containers.push(container);
    this.#cur = container;
  }

  #pop(): Container {
    const container = this.#containers.pop()!;
    this.#cur = this.#containers[this.#containers.length - 1]!;
    return container;
  }

  #boundary(cur: Container): boolean {
    cur.boundary();
    this.#frames.push(BOUNDARY);
    return true;
  }

  #startCapture(capture: Capture, done: () => void): boolean {
    this.#capture = capture;
    this.#captured = done;
    return true;
  }

  /** Directly inside an element that names a code language (`<div class="language-ts">`). */
  #inCodeWrapper(): boolean {
    const hint = this.#hints[this.#hints.length - 1];
    return hint !== undefined && this.#frames.length - hint.depth <= 1;
  }

  #hint(attribs: Record<string, string>): void {
    const language = languageOf(attribs);
    if (language) this.#hints.push({ depth: this.#frames.length, tables: this.#tables.length, language });
  }

  // Inline elements.

  #openMark(kind: MarkKind, cur: Container): boolean {
    if (cur.markCount >= MAX_MARKS) {
      this.#frames.push(NONE);
      return true;
    }
    cur.openMark(kind, this.#options.rawHtml);
    this.#frames.push(MARK);
    return true;
  }

  #openLink(attribs: Record<string, string>, cur: Container): boolean {
    const href = attribs.href?.trim();
    if (href === undefined || cur.kind === 'link' || /^javascript:/i.test(href)) {
      this.#frames.push(NONE);
      return true;
    }
    const hash = href.indexOf('#');
    const fragment = hash >= 0 ? href.slice(hash + 1) : '';
    if (fragment !== '') {
      if (
        attribs['data-footnote-backref'] !== undefined ||
        attribs.role === 'doc-backlink' ||
        FOOTNOTE_BACKREF.test(fragment)
      ) {
        return false;
      }
      if (
        attribs['data-footnote-ref'] !== undefined ||
        attribs.role === 'doc-noteref' ||
        /(?:^|\s)footnote-ref(?:erence)?(?:\s|$)/.test(attribs.class ?? '') ||
        (this.#sup > 0 && FOOTNOTE_FRAGMENT.test(fragment))
      ) {
        return this.#openFootnoteRef(fragment, cur);
      }
    }
    // A heading's permalink (`<a class="hash-link" href="#usage">#</a>`, Sphinx's `¶`): a link from the heading to a
    // place in the same page, its text a symbol. Its text in the heading would be noise to a reader and to a chunker.
    const permalink = (cur.kind === 'heading' || fragment === this.#selfId) && fragment !== '' && this.#samePage(href);
    // a heading or term that links to itself as a whole (MDN's `<h2 id="syntax"><a href="#syntax">Syntax</a>`)
    const self = permalink && fragment === this.#selfId;
    const breakText = cur.kind === 'heading' ? ' ' : this.#cells > 0 ? '<br>' : '\\\n';
    const link = new Container('link', breakText);
    this.#push(link);
    this.#frames.push({
      close: () => {
        this.#pop();
        const text = link.finishInline(']');
        const parent = this.#cur;
        if (
          (INVISIBLE_TEXT.test(text) && !this.#options.rawHtml) ||
          (fragment !== '' && SKIP_LINK_TEXT.test(text)) ||
          (permalink && (SYMBOL_TEXT.test(text) || ICON_IMAGE.test(text)))
        ) {
          if (link.leadingSpace || link.trailingSpace) parent.space();
          parent.droppedLink = true;
          return;
        }
        if (self) {
          parent.raw(text, link.leadingSpace, link.trailingSpace);
          return;
        }
        const destination = formatDestination(this.#urls.resolve(href));
        parent.raw(`[${text}](${destination}${formatTitle(attribs.title)})`, link.leadingSpace, link.trailingSpace);
      },
    });
    return true;
  }

  /** Whether `href` leads to the page itself: a bare fragment, or the page's URL (else the base) with one. */
  #samePage(href: string): boolean {
    if (href.startsWith('#')) return true;
    const page = this.#options.pageUrl ?? this.#urls.resolve('');
    return page !== '' && this.#urls.resolve(href).split('#')[0] === page.split('#')[0];
  }

  #openFootnoteRef(fragment: string, cur: Container): boolean {
    if (this.#sup > 0) cur.suppressPendingMark('sup');
    const capture = new CodeCapture();
    return this.#startCapture(capture, () => {
      let label = this.#footnotes.get(fragment);
      if (label === undefined) {
        label = capture.code.replace(/[^\p{L}\p{N}_-]+/gu, '') || String(this.#footnotes.size + 1);
        this.#footnotes.set(fragment, label);
      }
      this.#cur.raw(`[^${label}]`);
    });
  }

  /** A block a footnote reference points at (docutils' `<aside role="doc-footnote">`): `[^label]: ...`. */
  #openFootnote(label: string, cur: Container): boolean {
    cur.boundary();
    const note = new Container('dd');
    this.#push(note);
    this.#frames.push({
      close: () => {
        this.#pop();
        const text = joinBlocks(note.takeBlocks(), false);
        if (text !== '') this.#cur.pushBlock({ kind: 'other', text: prefixLines(text, `[^${label}]: `, '    ', '') });
      },
    });
    return true;
  }

  #image(attribs: Record<string, string>, cur: Container): void {
    let src = attribs.src?.trim();
    // Lazy-loading pages put a placeholder (often a tiny data: GIF) in src and the image in a data attribute.
    if (!src || /^data:/i.test(src)) {
      const lazy = attribs['data-src'] ?? attribs['data-lazy-src'] ?? attribs['data-original'];
      if (lazy?.trim()) src = lazy.trim();
    }
    if (!src) return;
    const data = /^data:/i.test(src) ? this.#dataImage(src) : undefined;
    const destination = data === BASE64_REMOVED ? data : formatDestination(data ?? this.#urls.resolve(src));
    const alt = attribs.alt ? escapeBrackets(collapseWhitespace(attribs.alt).trim()) : '';
    cur.raw(`![${alt}](${destination}${formatTitle(attribs.title)})`);
  }

  /** A `data:` image URL as written: the placeholder for a base64 one when `removeBase64Images`, else itself. */
  #dataImage(url: string): string {
    const comma = url.indexOf(',');
    const base64 = comma > 0 && /;base64$/i.test(url.slice(0, comma));
    return base64 && this.#options.removeBase64Images ? BASE64_REMOVED : url;
  }

  #openCode(capture: CodeCapture): boolean {
    return this.#startCapture(capture, () => {
      const span = capture.finish();
      if (span !== '') this.#cur.raw(span);
    });
  }

  #openMath(capture: MathCapture): boolean {
    return this.#startCapture(capture, () => this.#math(capture.finish(), capture.display));
  }

  #openScript(attribs: Record<string, string>): boolean {
    const mode = isMathScript(attribs);
    if (!mode) return false;
    const capture = new CodeCapture('\n');
    return this.#startCapture(capture, () => this.#math(capture.code.trim(), mode === 'display'));
  }

  /** Sphinx's and pymdownx's `\\(...\\)` source for MathJax: a formula; anything else is replayed as it came. */
  #openTexSource(name: string, attribs: Record<string, string>): boolean {
    const capture = new RawCapture(name, attribs, false);
    return this.#startCapture(capture, () => {
      const found = texOf(capture.events);
      if (found) return this.#math(found.tex, found.display);
      // replayed once: no element inside is recorded again (linear however deep such elements nest)
      const events = capture.events;
      const { end } = planRaw(events);
      this.#texReplay = true;
      for (let i = 0; i < events.length; i++) {
        const event = events[i]!;
        if (typeof event === 'string') this.text(event);
        else if ('close' in event) this.close(event.close);
        else if (!this.open(event.open, event.attribs)) i = end[i]!;
      }
      this.#texReplay = false;
      this.#budget.check();
    });
  }

  #math(tex: string, display: boolean): void {
    if (tex === '') return;
    const cur = this.#cur;
    if (display && !cur.inlineOnly) cur.pushBlock({ kind: 'math', text: `$$\n${tex}\n$$` });
    else cur.raw(display ? `$$${tex}$$` : `$${tex}$`);
  }

  #iframe(attribs: Record<string, string>, cur: Container): void {
    const srcdoc = attribs.srcdoc;
    const depth = this.#options.depth ?? 0;
    if (!srcdoc || depth >= MAX_IFRAME_DEPTH) return;
    const inner = new Converter({ ...this.#options, depth: depth + 1 });
    feedHtml(inner, srcdoc, this.#budget);
    const text = inner.finish();
    if (text !== '') cur.pushBlock({ kind: 'other', text });
  }

  // Raw-HTML mode.

  /** Outside any paragraph, with no inline content pending: an element here starts a block. */
  #atBlockLevel(cur: Container): boolean {
    return (
      this.#paragraphs === 0 && !cur.hasInline && (cur.kind === 'root' || cur.kind === 'quote' || cur.kind === 'dd')
    );
  }

  /** An element markdown cannot express, inside a paragraph: its tags as inline HTML, its content as markdown. */
  #openRawInline(name: string, attribs: Record<string, string>, cur: Container): boolean {
    cur.raw(startTag(name, attribs, this.#attributeFilter));
    if (isVoid(name)) return false;
    this.#frames.push({ close: () => this.#cur.raw(`</${name}>`) });
    return true;
  }

  /**
   * An element markdown cannot express, at block level. Outside a replay, its subtree is recorded to its end, then
   * replayed once. In the replay, an element whose content is blocks writes its tags around that content converted
   * to markdown; any other is written whole as one HTML block; a table that GFM expresses exactly is converted as
   * usual (`undefined`).
   */
  #openRawBlock(name: string, attribs: Record<string, string>, table: boolean): boolean | undefined {
    const plan = this.#plan;
    if (!plan) {
      const capture = new RawCapture(name, attribs);
      return this.#startCapture(capture, () => this.#replay(planRaw(capture.events)));
    }
    const i = this.#planIndex;
    const end = plan.end[i]!;
    if (table ? !isGfmTable(plan.events, i, end) : !plan.holdsBlocks[i]) {
      this.#cur.pushBlock({ kind: 'other', text: serializeRaw(plan.events, i, end + 1, this.#attributeFilter) });
      return false;
    }
    if (table) return undefined;
    this.#cur.pushBlock({ kind: 'other', text: startTag(name, attribs, this.#attributeFilter) });
    this.#frames.push({
      close: () => {
        this.#cur.boundary();
        this.#cur.pushBlock({ kind: 'other', text: `</${name}>` });
      },
    });
    return true;
  }

  /** Feeds a recorded subtree through the converter again, its raw-HTML decisions taken from `plan`. */
  #replay(plan: RawPlan): void {
    this.#plan = plan;
    const events = plan.events;
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (typeof event === 'string') this.text(event);
      else if ('close' in event) this.close(event.close);
      else {
        this.#planIndex = i;
        // skipped: its subtree and its end tag too
        if (!this.open(event.open, event.attribs)) i = plan.end[i]!;
      }
    }
    this.#plan = null;
    this.#budget.check();
  }

  // Block elements.

  #openTerm(id: string | undefined, cur: Container): boolean {
    cur.boundary();
    // docutils 0.17 write a footnote as `<dt class="label" id="id3">` (its back-link) and a `<dd>` (the note)
    this.#noteTerm = id !== undefined ? this.#footnotes.get(id) : undefined;
    const outer = this.#selfId;
    this.#selfId = id;
    this.#frames.push({
      close: () => {
        this.#selfId = outer;
        this.#cur.boundary();
      },
    });
    return true;
  }

  #openHeading(name: string, id: string | undefined, cur: Container): boolean {
    if (cur.inlineOnly) return this.#boundary(cur);
    const level = name.charCodeAt(1) - 48;
    const heading = new Container('heading');
    this.#push(heading);
    const outer = this.#selfId;
    this.#selfId = id;
    this.#frames.push({
      close: () => {
        this.#selfId = outer;
        this.#pop();
        const text = heading.finishInline().trim();
        const hashes = '#'.repeat(level);
        if (text !== '') this.#cur.pushBlock({ kind: 'heading', text: `${hashes} ${headingText(text)}` });
        else if (this.#options.rawHtml) this.#cur.pushBlock({ kind: 'heading', text: hashes });
      },
    });
    return true;
  }

  #openPre(attribs: Record<string, string>, cur: Container): boolean {
    if (cur.inlineOnly) return this.#openCode(new CodeCapture());
    let language = languageOf(attribs);
    const hint = this.#hints[this.#hints.length - 1];
    // A wrapper's language reaches a `<pre>` up to 3 elements down, past a line-number table (table, row, cell)
    if (!language && hint) {
      const reach = 3 + (this.#tables.length > hint.tables ? 4 : 0);
      if (this.#frames.length - hint.depth <= reach) language = hint.language;
    }
    const capture = new PreCapture(language);
    return this.#startCapture(capture, () => {
      const text = capture.finish();
      if (text !== '') this.#cur.pushBlock({ kind: 'code', text });
    });
  }

  #openQuote(cur: Container): boolean {
    if (cur.inlineOnly || this.#nesting >= MAX_NESTING) return this.#boundary(cur);
    const quote = new Container('quote');
    this.#push(quote);
    this.#nesting++;
    this.#frames.push({
      close: () => {
        this.#pop();
        this.#nesting--;
        const text = joinBlocks(quote.takeBlocks(), false);
        if (text !== '') this.#cur.pushBlock({ kind: 'quote', text: prefixLines(text, '> ', '> ', '>') });
        else if (this.#options.rawHtml) this.#cur.pushBlock({ kind: 'quote', text: '>' });
        this.#budget.check();
      },
    });
    return true;
  }

  #openDefinition(cur: Container): boolean {
    const note = this.#noteTerm;
    this.#noteTerm = undefined;
    if (note !== undefined && !cur.inlineOnly) return this.#openFootnote(note, cur);
    if (cur.inlineOnly || this.#nesting >= MAX_NESTING) return this.#boundary(cur);
    const definition = new Container('dd');
    this.#push(definition);
    this.#nesting++;
    this.#frames.push({
      close: () => {
        this.#pop();
        this.#nesting--;
        const text = joinBlocks(definition.takeBlocks(), false);
        if (text !== '') this.#cur.pushBlock({ kind: 'dd', text: prefixLines(text, ': ', '  ', '') });
        this.#budget.check();
      },
    });
    return true;
  }

  // Lists.

  #startList(ordered: boolean, attribs: Record<string, string>, cur: Container): ListFrame {
    const list: ListFrame = {
      ordered,
      reversed: ordered && attribs.reversed !== undefined,
      keepEmpty: this.#options.rawHtml,
      items: [],
      gap: new Container('gap'),
      parent: cur,
    };
    if (ordered) {
      const start = integer(attribs.start);
      if (start !== undefined) list.start = start;
    }
    this.#lists.push(list);
    this.#push(list.gap);
    this.#nesting++;
    return list;
  }

  #endList(list: ListFrame): void {
    this.#flushListGap(list);
    this.#pop();
    this.#lists.pop();
    this.#nesting--;
    if (list.items.length === 0) return;
    list.parent.pushBlock(renderList(list.items, list, list.parent.previousBlock(), this.#budget));
    this.#budget.check();
  }

  /** Content of a list outside its items: a nested list joins the previous item, anything else is an item. */
  #flushListGap(list: ListFrame): void {
    const blocks = list.gap.takeBlocks();
    if (blocks.length === 0) return;
    const last = list.items[list.items.length - 1];
    if (last && blocks.every((b) => b.kind === 'list')) last.blocks.push(...blocks);
    else list.items.push({ blocks, loose: false });
  }

  #openList(ordered: boolean, attribs: Record<string, string>, cur: Container): boolean {
    if (cur.inlineOnly || this.#nesting >= MAX_NESTING) return this.#boundary(cur);
    const list = this.#startList(ordered, attribs, cur);
    this.#frames.push({ close: () => this.#endList(list) });
    return true;
  }

  #openItem(attribs: Record<string, string>, cur: Container): boolean {
    if (cur.inlineOnly) return this.#boundary(cur);
    let list = this.#lists[this.#lists.length - 1];
    let stray = false;
    if (!list || cur !== list.gap) {
      if (this.#nesting >= MAX_NESTING) return this.#boundary(cur);
      list = this.#startList(false, {}, cur);
      stray = true;
    }
    this.#flushListGap(list);
    const item = new Container('item');
    const value = integer(attribs.value);
    const footnote = attribs.id !== undefined ? this.#footnotes.get(attribs.id) : undefined;
    this.#push(item);
    const owner = list;
    this.#frames.push({
      close: () => {
        this.#pop();
        const entry: ListItem = { blocks: item.takeBlocks(), loose: item.sawParagraph };
        if (value !== undefined) entry.value = value;
        if (footnote !== undefined) entry.footnote = footnote;
        if (item.droppedLink && entry.blocks.length === 0) entry.emptied = true;
        owner.items.push(entry);
        if (stray) this.#endList(owner);
      },
    });
    return true;
  }

  // Tables.

  #table(cur: Container): TableFrame | undefined {
    const table = this.#tables[this.#tables.length - 1];
    return table && cur === table.gap ? table : undefined;
  }

  #openTable(attribs: Record<string, string>, cur: Container): boolean {
    if (cur.inlineOnly || this.#nesting >= MAX_NESTING) return this.#boundary(cur);
    const role = attribs.role?.toLowerCase();
    const table: TableFrame = {
      model: { rows: [], caption: [], presentation: role === 'presentation' || role === 'none', nested: false },
      gap: new Container('gap'),
      parent: cur,
      row: null,
      head: false,
    };
    this.#tables.push(table);
    this.#push(table.gap);
    this.#nesting++;
    this.#frames.push({
      close: () => {
        this.#flushTableGap(table);
        this.#pop();
        this.#tables.pop();
        this.#nesting--;
        const outer = this.#tables[this.#tables.length - 1];
        if (outer) outer.model.nested = true;
        for (const block of renderTable(table.model, this.#budget)) table.parent.pushBlock(block);
        this.#budget.check();
      },
    });
    return true;
  }

  /** Content inside a table but outside its cells goes before the table, as browsers do. */
  #flushTableGap(table: TableFrame): void {
    for (const block of table.gap.takeBlocks()) table.parent.pushBlock(block);
  }

  #openCaption(cur: Container): boolean {
    const table = this.#table(cur);
    if (!table) return this.#boundary(cur);
    this.#flushTableGap(table);
    const caption = new Container('caption');
    this.#push(caption);
    this.#frames.push({
      close: () => {
        this.#pop();
        table.model.caption.push(...caption.takeBlocks());
      },
    });
    return true;
  }

  #openTableSection(name: string, cur: Container): boolean {
    const table = this.#table(cur);
    if (!table) return this.#boundary(cur);
    const previous = table.head;
    table.head = name === 'thead';
    this.#frames.push({ close: () => (table.head = previous) });
    return true;
  }

  #openRow(cur: Container): boolean {
    const table = this.#table(cur);
    if (!table) return this.#boundary(cur);
    this.#flushTableGap(table);
    table.row = { cells: [], head: table.head };
    table.model.rows.push(table.row);
    this.#frames.push(NONE);
    return true;
  }

  #openCell(name: string, attribs: Record<string, string>, cur: Container): boolean {
    const table = this.#table(cur);
    if (!table) return this.#boundary(cur);
    if (isGutter(attribs)) return false;
    this.#flushTableGap(table);
    if (!table.row) {
      table.row = { cells: [], head: table.head };
      table.model.rows.push(table.row);
    }
    const row = table.row;
    const cell = new Container('cell', '<br>');
    this.#push(cell);
    this.#cells++;
    this.#frames.push({
      close: () => {
        this.#pop();
        this.#cells--;
        this.#budget.tick();
        row.cells.push({
          blocks: cell.takeBlocks(),
          header: name === 'th' || row.head,
          colspan: colspanOf(attribs.colspan),
          rowspan: rowspanOf(attribs.rowspan),
          align: alignOf(attribs),
        });
      },
    });
    return true;
  }
}
