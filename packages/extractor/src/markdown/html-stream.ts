import { DomHandler, type Document } from 'domhandler';
import { Tokenizer, type QuoteType, type TokenizerCallbacks } from 'htmlparser2';

import { Budget } from './budget.js';
import type { HtmlSink } from './drivers.js';

// The element events of htmlparser2's Parser (implied end tags, void elements, `</p>` and `</br>` quirks, the
// foreign-content rules that the tokenizer asks about), rebuilt over its Tokenizer with a push/pop stack and
// per-name counts: htmlparser2 12's Parser keeps its open elements with `unshift`/`shift`, which makes each
// event cost the nesting depth (100k nested divs take seconds). Skipped subtrees collect no attributes.

const P = new Set(['p']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const FORM_CONTROLS = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);

// prettier-ignore
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])], ['th', new Set(['th'])], ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])], ['a', new Set(['a'])], ['li', new Set(['li'])], ['p', P],
  ['h1', HEADINGS], ['h2', HEADINGS], ['h3', HEADINGS], ['h4', HEADINGS], ['h5', HEADINGS], ['h6', HEADINGS],
  ['select', FORM_CONTROLS], ['input', FORM_CONTROLS], ['output', FORM_CONTROLS], ['button', FORM_CONTROLS],
  ['datalist', FORM_CONTROLS], ['textarea', FORM_CONTROLS], ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])], ['dd', DD_DT], ['dt', DD_DT], ['address', P], ['article', P],
  ['aside', P], ['blockquote', P], ['details', P], ['div', P], ['dl', P], ['fieldset', P], ['figcaption', P],
  ['figure', P], ['footer', P], ['form', P], ['header', P], ['hr', P], ['main', P], ['nav', P], ['ol', P],
  ['pre', P], ['section', P], ['table', P], ['ul', P], ['rt', RT_RP], ['rp', RT_RP], ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
]);

// prettier-ignore
const VOID = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

const NONE = 0;
const FOREIGN = 1;
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/** Input goes to the tokenizer in slices of this many characters, with a budget check between them. */
const WRITE_CHUNK = 1 << 20;
/** Adjacent text pieces (split at entities and chunk ends) are joined up to this length. */
const TEXT_CHUNK = 1 << 20;

class StreamHandler implements TokenizerCallbacks {
  readonly #html: string;
  readonly #sink: HtmlSink;
  readonly #stack: string[] = [];
  readonly #open = new Map<string, number>();
  /** Foreign-content contexts (svg/math push FOREIGN, integration points push NONE). */
  readonly #contexts: number[] = [NONE];
  /** While above zero, events belong to a subtree the sink skipped: its stack height when it started. */
  #skipFrom = -1;
  #tagname = '';
  #attribs: Record<string, string> | null = null;
  #attribname = '';
  #attribvalue = '';
  #text = '';

  constructor(html: string, sink: HtmlSink) {
    this.#html = html;
    this.#sink = sink;
  }

  get #skipping(): boolean {
    return this.#skipFrom >= 0;
  }

  isInForeignContext(): boolean {
    return this.#contexts[this.#contexts.length - 1] !== NONE;
  }

  ontext(start: number, endIndex: number): void {
    if (this.#skipping) return;
    this.#text += this.#html.slice(start, endIndex);
    if (this.#text.length > TEXT_CHUNK) this.flushText();
  }

  ontextentity(codepoint: number): void {
    if (this.#skipping) return;
    this.#text += String.fromCodePoint(codepoint);
  }

  flushText(): void {
    if (this.#text === '') return;
    const text = this.#text;
    this.#text = '';
    this.#sink.text(text);
  }

  #readTagName(start: number, endIndex: number): string {
    const name = this.#html.slice(start, endIndex).toLowerCase();
    return name === 'image' && !this.isInForeignContext() ? 'img' : name;
  }

  onopentagname(start: number, endIndex: number): void {
    this.#emitOpenTag(this.#readTagName(start, endIndex));
  }

  #emitOpenTag(name: string): void {
    // A second <form> while one is open is ignored, as browsers do.
    if (name === 'form' && (this.#open.get('form') ?? 0) > 0) {
      this.#tagname = '';
      return;
    }
    const impliesClose = OPEN_IMPLIES_CLOSE.get(name);
    if (impliesClose) {
      const stack = this.#stack;
      while (stack.length > 0 && impliesClose.has(stack[stack.length - 1]!)) this.#popElement(true);
    }
    if (!VOID.has(name)) {
      this.#stack.push(name);
      this.#open.set(name, (this.#open.get(name) ?? 0) + 1);
      if (name === 'svg' || name === 'math') this.#contexts.push(FOREIGN);
      else if (INTEGRATION.has(name)) this.#contexts.push(NONE);
    }
    this.#tagname = name;
    this.#attribs = this.#skipping ? null : {};
  }

  onattribname(start: number, endIndex: number): void {
    if (this.#attribs) this.#attribname = this.#html.slice(start, endIndex).toLowerCase();
  }

  onattribdata(start: number, endIndex: number): void {
    if (this.#attribs) this.#attribvalue += this.#html.slice(start, endIndex);
  }

  onattribentity(codepoint: number): void {
    if (this.#attribs) this.#attribvalue += String.fromCodePoint(codepoint);
  }

  onattribend(_quote: QuoteType, _endIndex: number): void {
    const attribs = this.#attribs;
    const name = this.#attribname;
    if (attribs && name !== '__proto__' && !Object.hasOwn(attribs, name)) attribs[name] = this.#attribvalue;
    this.#attribvalue = '';
  }

  onopentagend(): void {
    this.#endOpenTag();
  }

  #endOpenTag(): void {
    const name = this.#tagname;
    const attribs = this.#attribs;
    this.#tagname = '';
    this.#attribs = null;
    if (!attribs) return;
    this.flushText();
    const opened = this.#sink.open(name, attribs);
    if (VOID.has(name)) {
      if (opened) this.#sink.close(name);
    } else if (!opened) this.#skipFrom = this.#stack.length - 1;
  }

  onselfclosingtag(): void {
    if (!this.isInForeignContext()) {
      this.#endOpenTag();
      return;
    }
    const name = this.#tagname;
    this.#endOpenTag();
    if (this.#stack[this.#stack.length - 1] === name) this.#popElement(false);
  }

  onclosetag(start: number, endIndex: number): void {
    const name = this.#readTagName(start, endIndex);
    if (VOID.has(name)) {
      if (name === 'br' && !this.#skipping) {
        // `</br>` is a line break.
        this.flushText();
        if (this.#sink.open('br', {})) this.#sink.close('br');
      }
      return;
    }
    if ((this.#open.get(name) ?? 0) > 0) {
      const stack = this.#stack;
      while (stack[stack.length - 1] !== name) this.#popElement(true);
      this.#popElement(false);
    } else if (name === 'p') {
      // `</p>` without an open paragraph is an empty paragraph.
      this.#emitOpenTag('p');
      this.#endOpenTag();
      if (this.#stack[this.#stack.length - 1] === 'p') this.#popElement(true);
    }
  }

  #popElement(_implied: boolean): void {
    const name = this.#stack.pop()!;
    this.#open.set(name, this.#open.get(name)! - 1);
    if (name === 'svg' || name === 'math' || INTEGRATION.has(name)) this.#contexts.pop();
    if (this.#skipping) {
      if (this.#stack.length === this.#skipFrom) this.#skipFrom = -1;
      return;
    }
    this.flushText();
    this.#sink.close(name);
  }

  oncdata(start: number, endIndex: number, offset: number): void {
    if (this.isInForeignContext() && !this.#skipping) this.#text += this.#html.slice(start, endIndex - offset);
  }

  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  onend(): void {
    while (this.#stack.length > 0) this.#popElement(true);
    this.flushText();
  }
}

/**
 * Streams an HTML string into `sink` (start tags, text, end tags) without building a DOM, in time linear in the
 * input whatever its nesting, with a budget check between 1 MB slices.
 */
export function feedHtml(sink: HtmlSink, html: string, budget: Budget): void {
  const handler = new StreamHandler(html, sink);
  const tokenizer = new Tokenizer({ decodeEntities: true }, handler);
  if (html.length <= WRITE_CHUNK) tokenizer.write(html);
  else {
    for (let i = 0; i < html.length; i += WRITE_CHUNK) {
      tokenizer.write(html.slice(i, i + WRITE_CHUNK));
      budget.check();
    }
  }
  tokenizer.end();
}

/**
 * Parses HTML into a domhandler `Document` with the same element rules as htmlparser2's `parseDocument` (entities
 * decoded, names lower-cased), in time linear in the input whatever its nesting depth.
 */
export function parseDocumentLinear(html: string): Document {
  const handler = new DomHandler(undefined, { withStartIndices: false, withEndIndices: false });
  const sink: HtmlSink = {
    open(name, attribs) {
      handler.onopentag(name, attribs);
      return true;
    },
    text(data) {
      handler.ontext(data);
    },
    close() {
      handler.onclosetag();
    },
  };
  feedHtml(sink, html, new Budget(undefined));
  handler.onend();
  return handler.root;
}
