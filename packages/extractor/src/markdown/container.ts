import { collapseWhitespace, escapeLineStart, escapeText, HELD, resolveHeld } from './escape.js';

export type BlockKind = 'p' | 'heading' | 'code' | 'list' | 'quote' | 'table' | 'hr' | 'math' | 'dd' | 'other';

/** A finished block of markdown, without surrounding blank lines. */
export interface Block {
  kind: BlockKind;
  text: string;
  /** Lists: the bullet character or the ordered delimiter, so that two adjacent lists stay apart. */
  marker?: string;
  /** Ordered lists: the first number. */
  start?: number;
}

/**
 * Where content goes. Block containers (root, quote, item, cell, ...) collect paragraphs and blocks; inline
 * captures (link text, heading text) hold one line of inline content and turn block boundaries into breaks.
 */
export type ContainerKind = 'root' | 'quote' | 'item' | 'cell' | 'caption' | 'dd' | 'gap' | 'link' | 'heading';

export type MarkKind = 'em' | 'strong' | 'del' | 'sup' | 'sub';

const OPEN: Record<MarkKind, string> = { em: '*', strong: '**', del: '~~', sup: '<sup>', sub: '<sub>' };
const CLOSE: Record<MarkKind, string> = { em: '*', strong: '**', del: '~~', sup: '</sup>', sub: '</sub>' };

interface Mark {
  kind: MarkKind;
  /** False for a mark nested in one of its own kind before that one wrote anything: it writes nothing. */
  active: boolean;
  emitted: boolean;
  suppressed: boolean;
  close: string;
}

/**
 * One container's output. Inline content is written lazily: whitespace, hard breaks and opening emphasis markers
 * wait until real content follows, so nothing trails a line and empty elements leave no markers behind.
 */
export class Container {
  readonly kind: ContainerKind;
  readonly blocks: Block[] = [];
  /** A `<p>` opened in this container (list items: the list is loose). */
  sawParagraph = false;
  /** The converter dropped a link here (an icon link, a skip link): an item left empty by it is no item. */
  droppedLink = false;
  /** Whitespace came before the first content (inline captures move it outside themselves). */
  leadingSpace = false;
  readonly #inlineOnly: boolean;
  readonly #breakText: string;
  readonly #breakIsNewline: boolean;
  readonly #maxBreaks: number;
  #inline = '';
  #hasContent = false;
  #pendingSpace = false;
  #pendingBreaks = 0;
  #held = '';
  /** The character before the held one. */
  #heldPrev = '';
  #last = '';
  readonly #marks: Mark[] = [];
  readonly #stream: ((block: Block) => void) | undefined;
  #lastBlock: Block | undefined;

  /** `stream`: finished blocks go there as they complete instead of into `blocks` (the root's output). */
  constructor(kind: ContainerKind, breakText = '\\\n', stream?: (block: Block) => void) {
    this.kind = kind;
    this.#stream = stream;
    this.#inlineOnly = kind === 'link' || kind === 'heading';
    this.#breakText = kind === 'heading' ? ' ' : breakText;
    this.#breakIsNewline = this.#breakText.endsWith('\n');
    this.#maxBreaks = this.#breakIsNewline ? 1 : 2;
  }

  get inlineOnly(): boolean {
    return this.#inlineOnly;
  }

  /** Trailing whitespace is pending (inline captures move it outside themselves). */
  get trailingSpace(): boolean {
    return this.#pendingSpace;
  }

  get hasInline(): boolean {
    return this.#hasContent;
  }

  /** Collapsible whitespace. */
  space(): void {
    if (this.#hasContent) this.#pendingSpace = true;
    else this.leadingSpace = true;
  }

  /** A text node: whitespace collapsed, markdown-looking characters escaped. */
  text(raw: string): void {
    let s = collapseWhitespace(raw);
    if (s === '') return;
    if (s.charCodeAt(0) === 32) {
      this.space();
      s = s.slice(1);
    }
    const trailing = s.charCodeAt(s.length - 1) === 32;
    if (trailing) s = s.slice(0, -1);
    if (s !== '') {
      // Link and heading text starts inline (after `[` or `# `); text right after an opening marker is not at the
      // start of a line either.
      const lineStart =
        (this.#hasContent ? this.#pendingBreaks > 0 && this.#breakIsNewline : !this.#inlineOnly) &&
        !this.#hasPendingMarks();
      const prev = lineStart ? '' : this.#pendingSpace ? ' ' : this.#held || this.#last;
      let held = s[s.length - 1]!;
      const inLink = this.kind === 'link';
      // A lone `*` starting a line is a bullet whatever follows: escaped now, not held.
      if (HELD.has(held) && !(inLink && held === ']') && !(lineStart && s === '*')) s = s.slice(0, -1);
      else held = '';
      let out = s === '' ? '' : escapeText(s, prev, inLink, held || undefined);
      if (lineStart && out !== '') out = escapeLineStart(out);
      if (out !== '') this.#append(out);
      else if (held) this.#append('');
      if (held) {
        this.#held = held;
        this.#heldPrev = s !== '' ? s[s.length - 1]! : prev;
      }
    }
    if (trailing) this.space();
  }

  /** Markdown written as is (links, images, code spans, markers). */
  raw(s: string, leadingSpace = false, trailingSpace = false): void {
    if (leadingSpace) this.space();
    if (s !== '') this.#append(s);
    if (trailingSpace) this.space();
  }

  /** `<br>`: a hard line break once more content follows; two in a row end the paragraph where that is possible. */
  hardBreak(): void {
    if (this.kind === 'heading') return this.space();
    if (!this.#hasContent) return;
    if (this.#pendingBreaks >= this.#maxBreaks) {
      if (!this.#inlineOnly && this.kind !== 'cell') this.flushParagraph();
      return;
    }
    this.#pendingBreaks++;
    this.#pendingSpace = false;
  }

  /** The start or end of a block-level element. */
  boundary(): void {
    if (this.kind === 'heading') this.space();
    else if (this.#inlineOnly) {
      if (this.#hasContent) this.#pendingBreaks = 1;
    } else this.flushParagraph();
  }

  /**
   * The end of the inline text written so far, when the next content would follow it directly (no space, break or
   * held character pending); undefined otherwise.
   */
  inlineTail(): string | undefined {
    if (this.#pendingSpace || this.#pendingBreaks > 0 || this.#held !== '' || !this.#hasContent) return undefined;
    return this.#inline.length > 64 ? this.#inline.slice(-64) : this.#inline;
  }

  /** Writes `s` into the inline text `back` characters before its end (a price's cents: `price-cents.ts`). */
  insertBeforeEnd(back: number, s: string): void {
    const at = this.#inline.length - back;
    this.#inline = this.#inline.slice(0, at) + s + this.#inline.slice(at);
    if (back === 0) this.#last = s[s.length - 1]!;
  }

  /** Writes `s` in place of the inline text's last `length` characters (a currency sign's `<sup>`, price-cents.ts). */
  replaceEnd(length: number, s: string): void {
    this.#inline = this.#inline.slice(0, -length) + s;
    this.#last = s[s.length - 1]!;
  }

  /** Open inline marks; the converter stops opening more past a small limit (deep nesting stays linear). */
  get markCount(): number {
    return this.#marks.length;
  }

  /** `faithful`: a mark nested in its own kind is written even where it opens with the outer one. */
  openMark(kind: MarkKind, faithful = false): void {
    // A mark nested in one of its own kind writes nothing when it opens where the outer one does (`<b><strong>`,
    // redundant on real pages); opened after the outer one's content (`<em>a <em>b</em> c</em>`), it is written.
    const active = faithful || !this.#marks.some((m) => m.kind === kind && m.active && !m.emitted);
    this.#marks.push({ kind, active, emitted: false, suppressed: false, close: CLOSE[kind] });
  }

  closeMark(): void {
    const mark = this.#marks.pop();
    if (!mark?.emitted || mark.suppressed) return;
    this.#writeClose(mark);
  }

  /** A footnote reference replaces its `<sup>`: the sup, if it has written nothing yet, writes nothing at all. */
  suppressPendingMark(kind: MarkKind): void {
    for (let i = this.#marks.length - 1; i >= 0; i--) {
      const mark = this.#marks[i]!;
      if (mark.kind === kind && !mark.emitted) {
        mark.suppressed = true;
        return;
      }
    }
  }

  /** Ends the current paragraph; open emphasis is closed here and reopened in the next one. */
  flushParagraph(): void {
    if (!this.#hasContent) {
      this.#resetInline();
      return;
    }
    const text = this.#takeInline();
    const trimmed = text.trim();
    if (trimmed === '') return;
    this.#add({ kind: 'p', text: trimmed.length === text.length ? text : escapeLineStart(trimmed) });
  }

  #add(block: Block): void {
    if (this.#stream) {
      this.#stream(block);
      this.#lastBlock = block;
    } else this.blocks.push(block);
  }

  /** Adds a finished block; inline captures take it as a line of their own. */
  pushBlock(block: Block): void {
    if (block.text === '') return;
    if (this.#inlineOnly) {
      if (this.#hasContent) this.#pendingBreaks = 1;
      this.#append(block.text.replace(/\n+/g, this.#breakText));
      this.#pendingBreaks = 1;
      return;
    }
    this.flushParagraph();
    this.#add(block);
  }

  /** The last block, once the current paragraph is finished. */
  previousBlock(): Block | undefined {
    this.flushParagraph();
    return this.#stream ? this.#lastBlock : this.blocks[this.blocks.length - 1];
  }

  /** The inline content of a capture (link text, heading text); `next` is what the caller writes after it. */
  finishInline(next = ''): string {
    if (!this.#hasContent) return '';
    return this.#takeInline(next);
  }

  /** Every block, the current paragraph included; the container is empty afterwards. */
  takeBlocks(): Block[] {
    this.flushParagraph();
    return this.blocks.splice(0);
  }

  #takeInline(next = ''): string {
    for (let i = this.#marks.length - 1; i >= 0; i--) {
      const mark = this.#marks[i]!;
      if (mark.emitted && !mark.suppressed) {
        this.#writeClose(mark);
        mark.emitted = false;
      }
    }
    if (this.#held) this.#inline += resolveHeld(this.#held, next, this.#heldPrev);
    const text = this.#inline;
    this.#resetInline();
    return text;
  }

  #hasPendingMarks(): boolean {
    for (const mark of this.#marks) if (!mark.emitted && mark.active && !mark.suppressed) return true;
    return false;
  }

  #resetInline(): void {
    this.#inline = '';
    this.#hasContent = false;
    this.#pendingSpace = false;
    this.#pendingBreaks = 0;
    this.#held = '';
    this.#last = '';
  }

  #writeClose(mark: Mark): void {
    if (this.#held) {
      this.#inline += resolveHeld(this.#held, mark.close[0]!, this.#heldPrev);
      this.#held = '';
    }
    this.#inline += mark.close;
    this.#last = mark.close[mark.close.length - 1]!;
  }

  #append(s: string): void {
    let prefix = '';
    if (this.#pendingBreaks > 0) {
      prefix = this.#pendingBreaks === 1 ? this.#breakText : this.#breakText.repeat(this.#pendingBreaks);
    } else if (this.#pendingSpace) prefix = ' ';
    this.#pendingBreaks = 0;
    this.#pendingSpace = false;
    let prev = prefix === '' ? this.#held || this.#last : prefix[prefix.length - 1]!;
    for (const mark of this.#marks) {
      if (mark.emitted || !mark.active || mark.suppressed) continue;
      const open = mark.kind === 'em' && prev === '*' ? '_' : OPEN[mark.kind];
      mark.close = mark.kind === 'em' ? open : CLOSE[mark.kind];
      mark.emitted = true;
      prefix += open;
      prev = open[open.length - 1]!;
    }
    if (this.#held) {
      this.#inline += resolveHeld(this.#held, prefix !== '' ? prefix[0]! : (s[0] ?? ''), this.#heldPrev);
      this.#held = '';
    }
    if (prefix !== '') this.#inline += prefix;
    if (s !== '') {
      this.#inline += s;
      this.#last = s[s.length - 1]!;
    } else if (prefix !== '') this.#last = prefix[prefix.length - 1]!;
    this.#hasContent = true;
  }
}
