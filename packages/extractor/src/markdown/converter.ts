import { isEmbed } from '../dom/embeds.js';
import { isMathScript } from '../dom/math-scripts.js';

import { joinBlocks, prefixLines } from './blocks.js';
import type { Budget } from './budget.js';
import type { Capture } from './capture.js';
import { CalloutFrames } from './callout-frames.js';
import { CodeCapture, languageOf, PreCapture } from './code.js';
import { Container, type MarkKind } from './container.js';
import { feedEvents, feedHtml, type HtmlSink } from './drivers.js';
import { Footnotes, isFootnoteBackref, isFootnoteRef, openFootnote } from './footnotes.js';
import { EmbedCapture } from './embeds.js';
import { dataImage, imageMarkdown } from './images.js';
import { type LinkContext, openLink } from './links.js';
import { ListFrames } from './list-frames.js';
import { MathCapture } from './math.js';
import { PriceCents } from './price-cents.js';
import { planRaw, RawCapture, rawKind, type AttributeFilter } from './raw-html.js';
import { RawMode } from './raw-mode.js';
import { RubyCapture } from './ruby.js';
import { BOUNDARY, MARK, NONE, PARA, Stack, SUP } from './stack.js';
import { TabFrames } from './tab-frames.js';
import { TableFrames } from './table-frames.js';
import { DefinitionLists } from './definitions.js';
import { mayHoldTex, texOf } from './tex-source.js';
import * as T from './tags.js';
import { Output } from './output.js';
import { UrlResolver } from './urls.js';

export interface ConverterOptions {
  baseUrl?: string;
  /** The page's own URL (`MarkdownOptions.pageUrl`); absent: the base URL. */
  pageUrl?: string;
  removeBase64Images: boolean;
  /** Elements markdown has no syntax for are written as HTML, and empty or nested marks are kept. */
  rawHtml: boolean;
  /** A `<figcaption>` is an italic line (`MarkdownOptions.captions`). */
  captions?: boolean;
  /** An embed or player is a link line (`MarkdownOptions.embeds`). */
  embeds?: boolean;
  budget: Budget;
  /** `<iframe srcdoc>` nesting level. */
  depth?: number;
}

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
  readonly #stack = new Stack(this.#root);
  readonly #frames = this.#stack.frames;
  readonly #lists: ListFrames;
  readonly #tables: TableFrames;
  readonly #definitions = new DefinitionLists(this.#stack);
  readonly #callouts: CalloutFrames;
  readonly #tabs: TabFrames;
  readonly #links: LinkContext;
  readonly #raw: RawMode;
  readonly #cents: PriceCents;
  readonly #hints: { depth: number; tables: number; language: string }[] = [];
  readonly #footnotes = new Footnotes();
  #capture: Capture | null = null;
  #captured: (() => void) | null = null;
  #sup = 0;
  #paragraphs = 0;
  /** A recorded TeX-source element is being replayed as ordinary content (nothing in it is recorded again). */
  #texReplay = false;
  /** The label of the footnote whose `<dt>` was the last term (docutils 0.17): its `<dd>` is the note. */
  #noteTerm: string | undefined;
  /** The `id` of the heading or `<dt>` being converted: a link to it from inside is its permalink. */
  #selfId: string | undefined;

  constructor(options: ConverterOptions) {
    this.#options = options;
    this.#budget = options.budget;
    this.#urls = new UrlResolver(options.baseUrl);
    this.#lists = new ListFrames(this.#stack, this.#budget, options.rawHtml);
    this.#tables = new TableFrames(this.#stack, this.#budget);
    this.#callouts = new CalloutFrames(this.#stack, this.#budget);
    this.#tabs = new TabFrames(this.#stack, (tag, blocks, loose, cur) => {
      if (tag === 'li') this.#lists.addItem(blocks, loose, cur);
      else for (const block of blocks) cur.pushBlock(block);
    });
    this.#links = { urls: this.#urls, pageUrl: options.pageUrl, rawHtml: options.rawHtml };
    const filter: AttributeFilter = (element, name, value) => {
      if (name !== 'href' && name !== 'src') return value;
      const url = value.trim();
      if (/^data:/i.test(url)) return element === 'img' ? dataImage(url, options.removeBase64Images) : value;
      return this.#urls.resolve(url);
    };
    this.#cents = new PriceCents(this, (capture, done) => this.#startCapture(capture, done));
    this.#raw = new RawMode(this.#stack, this, filter, this.#budget, (capture, done) =>
      this.#startCapture(capture, done),
    );
  }

  open(name: string, attribs: Record<string, string>): boolean {
    this.#budget.tick();
    if (this.#capture) return this.#capture.open(name, attribs);
    const cls = attribs.class;
    // MathJax 3's container is classed `MathJax` like MathJax 2's visual copies, but holds the MathML (its visual
    // copy, `mjx-math`, is skipped by name)
    if (cls !== undefined && T.SKIP_CLASS.test(cls) && name !== 'mjx-container') return false;
    if (cls !== undefined && mayHoldTex(name, cls) && !this.#texReplay) return this.#openTexSource(name, attribs);
    const cur = this.#stack.cur;
    const docs = this.#openDocsStructure(name, attribs, cls, cur);
    if (docs !== undefined) return docs;
    if (this.#options.embeds && isEmbed(name, attribs)) {
      const embed = new EmbedCapture(name, attribs, this.#urls, this.#options.pageUrl);
      return this.#startCapture(embed, () => embed.write(this.#stack.cur));
    }
    const kind = T.TAGS.get(name) ?? T.INLINE;
    if (this.#options.rawHtml) {
      const raw = rawKind(name, kind, attribs);
      if (raw !== undefined) {
        if (!cur.inlineOnly && this.#stack.nesting < MAX_NESTING && (raw !== 'inline' || this.#atBlockLevel(cur))) {
          const handled = this.#raw.openBlock(name, attribs, raw === 'table');
          if (handled !== undefined) return handled;
        } else if (raw === 'inline') return this.#raw.openInline(name, attribs, cur);
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
          const label = this.#footnotes.label(attribs.id);
          if (label !== undefined) return openFootnote(this.#stack, label, cur);
        }
        cur.boundary();
        if (name === 'figcaption' && this.#options.captions) return this.#openCaption(cur);
        this.#frames.push(BOUNDARY);
        if (cls !== undefined && LANGUAGE_HINT.test(cls)) this.#hint(attribs);
        return true;
      case T.PARAGRAPH:
        cur.sawParagraph = true;
        cur.boundary();
        this.#frames.push(PARA);
        this.#paragraphs++;
        return true;
      case T.DEFINITION_LIST:
        return this.#definitions.open(cur);
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
      case T.IMAGE: {
        const image = imageMarkdown(attribs, this.#urls, this.#options.removeBase64Images);
        if (image !== undefined) cur.raw(image);
        return false;
      }
      case T.EMPHASIS:
        return this.#openMark('em', cur);
      case T.STRONG:
        return this.#openMark('strong', cur);
      case T.STRIKE:
        return this.#openMark('del', cur);
      case T.SUPERSCRIPT:
        if (!this.#options.rawHtml && this.#cents.open(name, attribs, cur)) return true;
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
        return this.#lists.openList(kind === T.ORDERED_LIST, attribs, cur, MAX_NESTING);
      case T.ITEM: {
        const footnote = attribs.id !== undefined ? this.#footnotes.label(attribs.id) : undefined;
        return this.#lists.openItem(attribs, cur, MAX_NESTING, footnote);
      }
      case T.QUOTE:
        return this.#openQuote(cur);
      case T.DEFINITION:
        return this.#openDefinition(cur);
      case T.TABLE: {
        // older docutils write a footnote as a one-row table (`<table class="docutils footnote" id="id4">`)
        const note = attribs.id !== undefined && !cur.inlineOnly ? this.#footnotes.label(attribs.id) : undefined;
        if (note !== undefined) return openFootnote(this.#stack, note, cur);
        return this.#tables.openTable(attribs, cur, MAX_NESTING);
      }
      case T.CAPTION:
        return this.#tables.openCaption(cur);
      case T.TABLE_SECTION:
        return this.#tables.openSection(name, cur);
      case T.ROW:
        return this.#tables.openRow(cur);
      case T.CELL:
        return this.#tables.openCell(name, attribs, cur);
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
        this.#frames.push({ close: () => this.#stack.cur.text('"') });
        return true;
      case T.RUBY: {
        const ruby = new RubyCapture();
        return this.#startCapture(ruby, () => this.#stack.cur.text(ruby.finish()));
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
    this.#cents.text(data, this.#stack.cur);
    if (data.length <= TEXT_SLICE) {
      this.#stack.cur.text(data);
      return;
    }
    for (let i = 0; i < data.length;) {
      let end = Math.min(i + TEXT_SLICE, data.length);
      if (end < data.length) {
        const space = data.lastIndexOf(' ', end);
        if (space > i + TEXT_SLICE / 2) end = space + 1;
      }
      this.#stack.cur.text(data.slice(i, end));
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
    else if (frame === BOUNDARY) this.#stack.cur.boundary();
    else if (frame === PARA) {
      this.#paragraphs--;
      this.#stack.cur.boundary();
    } else if (frame === MARK) this.#stack.cur.closeMark();
    else if (frame === SUP) {
      this.#sup--;
      this.#stack.cur.closeMark();
      if (!this.#options.rawHtml) this.#cents.closed(this.#stack.cur);
    }
    const hints = this.#hints;
    while (hints.length > 0 && hints[hints.length - 1]!.depth > this.#frames.length) hints.pop();
    this.#tabs.closed(this.#frames.length);
  }

  /** The markdown of everything fed so far (closing whatever is still open). */
  finish(): string {
    for (let guard = 0; this.#capture && guard < 1_000_000; guard++) this.close('');
    while (this.#frames.length > 0) this.close('');
    this.#root.flushParagraph();
    this.#budget.check();
    return this.#output.toString();
  }

  /** A callout, a callout's title, a tab label or (undefined, opening as usual) anything else. */
  #openDocsStructure(
    name: string,
    attribs: Record<string, string>,
    cls: string | undefined,
    cur: Container,
  ): boolean | undefined {
    if (cls === undefined && attribs.role === undefined && name !== 'label' && name !== 'input' && name !== 'summary') {
      return undefined;
    }
    return this.#callouts.open(name, attribs, cur, MAX_NESTING) ?? this.#tabs.open(name, attribs, cur);
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
    if (language) this.#hints.push({ depth: this.#frames.length, tables: this.#tables.depth, language });
  }

  /** Outside any paragraph, with no inline content pending: an element here starts a block (raw-HTML mode). */
  #atBlockLevel(cur: Container): boolean {
    return (
      this.#paragraphs === 0 && !cur.hasInline && (cur.kind === 'root' || cur.kind === 'quote' || cur.kind === 'dd')
    );
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

  /** A figure's caption under `captions`: an italic line of its own under the image. */
  #openCaption(cur: Container): boolean {
    cur.openMark('em');
    this.#frames.push({ close: () => (this.#stack.cur.closeMark(), this.#stack.cur.boundary()) });
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
      if (isFootnoteBackref(attribs, fragment)) return false;
      if (isFootnoteRef(attribs, fragment, this.#sup > 0)) return this.#openFootnoteRef(fragment, cur);
    }
    return openLink(this.#stack, this.#links, href, fragment, attribs, cur, this.#selfId, this.#tables.cells > 0);
  }

  #openFootnoteRef(fragment: string, cur: Container): boolean {
    if (this.#sup > 0) cur.suppressPendingMark('sup');
    const capture = new CodeCapture();
    return this.#startCapture(capture, () => {
      this.#stack.cur.raw(`[^${this.#footnotes.refer(fragment, capture.code)}]`);
    });
  }

  #openCode(capture: CodeCapture): boolean {
    return this.#startCapture(capture, () => {
      const span = capture.finish();
      if (span !== '') this.#stack.cur.raw(span);
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
      this.#texReplay = true;
      feedEvents(this, capture.events, planRaw(capture.events).end);
      this.#texReplay = false;
      this.#budget.check();
    });
  }

  #math(tex: string, display: boolean): void {
    if (tex === '') return;
    const cur = this.#stack.cur;
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

  // Block elements.

  #openTerm(id: string | undefined, cur: Container): boolean {
    cur.boundary();
    this.#definitions.sawTerm();
    // docutils 0.17 write a footnote as `<dt class="label" id="id3">` (its back-link) and a `<dd>` (the note)
    this.#noteTerm = id !== undefined ? this.#footnotes.label(id) : undefined;
    const outer = this.#selfId;
    this.#selfId = id;
    this.#frames.push({
      close: () => {
        this.#selfId = outer;
        this.#stack.cur.boundary();
      },
    });
    return true;
  }

  #openHeading(name: string, id: string | undefined, cur: Container): boolean {
    if (cur.inlineOnly) return this.#stack.boundary(cur);
    const level = name.charCodeAt(1) - 48;
    const heading = new Container('heading');
    this.#stack.push(heading);
    const outer = this.#selfId;
    this.#selfId = id;
    this.#frames.push({
      close: () => {
        this.#selfId = outer;
        this.#stack.pop();
        const text = heading.finishInline().trim();
        const hashes = '#'.repeat(level);
        if (text !== '') this.#stack.cur.pushBlock({ kind: 'heading', text: `${hashes} ${headingText(text)}` });
        else if (this.#options.rawHtml) this.#stack.cur.pushBlock({ kind: 'heading', text: hashes });
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
      const reach = 3 + (this.#tables.depth > hint.tables ? 4 : 0);
      if (this.#frames.length - hint.depth <= reach) language = hint.language;
    }
    const capture = new PreCapture(language);
    return this.#startCapture(capture, () => {
      const text = capture.finish();
      if (text !== '') this.#stack.cur.pushBlock({ kind: 'code', text });
    });
  }

  #openQuote(cur: Container): boolean {
    const stack = this.#stack;
    if (cur.inlineOnly || stack.nesting >= MAX_NESTING) return stack.boundary(cur);
    const quote = new Container('quote');
    stack.push(quote);
    stack.nesting++;
    this.#frames.push({
      close: () => {
        stack.pop();
        stack.nesting--;
        const text = joinBlocks(quote.takeBlocks(), false);
        if (text !== '') stack.cur.pushBlock({ kind: 'quote', text: prefixLines(text, '> ', '> ', '>') });
        else if (this.#options.rawHtml) stack.cur.pushBlock({ kind: 'quote', text: '>' });
        this.#budget.check();
      },
    });
    return true;
  }

  #openDefinition(cur: Container): boolean {
    const stack = this.#stack;
    const note = this.#noteTerm;
    this.#noteTerm = undefined;
    if (note !== undefined && !cur.inlineOnly) return openFootnote(stack, note, cur);
    if (cur.inlineOnly || stack.nesting >= MAX_NESTING) return stack.boundary(cur);
    const definition = new Container('dd');
    stack.push(definition);
    stack.nesting++;
    this.#frames.push({
      close: () => {
        stack.pop();
        stack.nesting--;
        const block = this.#definitions.definition(definition.takeBlocks());
        if (block) stack.cur.pushBlock(block);
        this.#budget.check();
      },
    });
    return true;
  }
}
