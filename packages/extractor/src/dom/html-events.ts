import type { QuoteType, TokenizerCallbacks } from 'htmlparser2';

import { lowerName } from './names.js';
import { closeRawTextInNoscript } from './noscript-raw-text.js';
import { FastTokenizer } from './tokenizer.js';

// htmlparser2's Parser element rules (implied end tags, void elements, the `</p>` and `</br>` quirks, a nested
// `<form>` ignored, SVG name case, foreign content, CDATA), rebuilt over its Tokenizer with a push/pop stack of open
// elements and per-name counts. htmlparser2 12's Parser keeps that stack with `unshift`/`shift`/`indexOf`, so every
// event costs the nesting depth: 100k nested divs take seconds, 1M unclosed ones never finish. Here each event costs
// O(1), amortised, whatever the depth. The events are the Parser's, so a tree built from them is parseDocument's.

/** What the events go to: start tags (false skips the subtree and its end tag), text, end tags, the rest. */
export interface HtmlEventSink {
  open(name: string, attribs: Record<string, string>): boolean;
  text(data: string): void;
  close(name: string): void;
  /** Comments, and `<![CDATA[…]]>` outside SVG and MathML (as `[CDATA[…]]`, like the Parser). */
  comment?(data: string): void;
  /** `<!doctype …>` (`!doctype`, `!…`) and `<?…>` (`?name`, `?…`). */
  processingInstruction?(name: string, data: string): void;
}

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

// prettier-ignore
const SVG_NAMES = new Map([
  ['altglyph', 'altGlyph'], ['altglyphdef', 'altGlyphDef'], ['altglyphitem', 'altGlyphItem'],
  ['animatecolor', 'animateColor'], ['animatemotion', 'animateMotion'], ['animatetransform', 'animateTransform'],
  ['clippath', 'clipPath'], ['feblend', 'feBlend'], ['fecolormatrix', 'feColorMatrix'],
  ['fecomponenttransfer', 'feComponentTransfer'], ['fecomposite', 'feComposite'],
  ['feconvolvematrix', 'feConvolveMatrix'], ['fediffuselighting', 'feDiffuseLighting'],
  ['fedisplacementmap', 'feDisplacementMap'], ['fedistantlight', 'feDistantLight'], ['fedropshadow', 'feDropShadow'],
  ['feflood', 'feFlood'], ['fefunca', 'feFuncA'], ['fefuncb', 'feFuncB'], ['fefuncg', 'feFuncG'],
  ['fefuncr', 'feFuncR'], ['fegaussianblur', 'feGaussianBlur'], ['feimage', 'feImage'], ['femerge', 'feMerge'],
  ['femergenode', 'feMergeNode'], ['femorphology', 'feMorphology'], ['feoffset', 'feOffset'],
  ['fepointlight', 'fePointLight'], ['fespecularlighting', 'feSpecularLighting'], ['fespotlight', 'feSpotLight'],
  ['fetile', 'feTile'], ['feturbulence', 'feTurbulence'], ['foreignobject', 'foreignObject'], ['glyphref', 'glyphRef'],
  ['lineargradient', 'linearGradient'], ['radialgradient', 'radialGradient'], ['textpath', 'textPath'],
]);

const NONE = 0;
const SVG = 1;
const MATHML = 2;
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignObject', 'desc', 'title']);

/**
 * Input goes to the tokenizer in slices of this many characters. Written whole, a page is one call of the
 * tokenizer's loop (`parse`), which V8 then only ever optimises on stack: it compiled that loop again for every
 * large page (once a page over the 12 largest dev pages, on its helper threads). In slices the loop is called often
 * enough to be optimised as a function, once.
 */
const WRITE_CHUNK = 1 << 16;
/** Adjacent text pieces (split at entities and write slices) are joined up to this length. */
const TEXT_CHUNK = 1 << 20;

class EventHandler implements TokenizerCallbacks {
  readonly #html: string;
  readonly #sink: HtmlEventSink;
  /** Open elements, innermost last. */
  readonly #stack: string[] = [];
  /** How many elements of each name are open (the Parser's `stack.includes`/`indexOf`, in O(1)). */
  readonly #open = new Map<string, number>();
  /** Foreign-content contexts: svg and math push theirs, HTML integration points push NONE. */
  readonly #contexts: number[] = [NONE];
  /** While at or above zero, events belong to a subtree the sink skipped: the stack height where it started. */
  #skipFrom = -1;
  #tagname = '';
  #attribs: Record<string, string> | null = null;
  #attribname = '';
  #attribvalue = '';
  #text = '';

  constructor(html: string, sink: HtmlEventSink) {
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
    const name = lowerName(this.#html, start, endIndex);
    const context = this.#contexts[this.#contexts.length - 1];
    if (context === SVG) return SVG_NAMES.get(name) ?? name;
    // a closing tag of an SVG element from inside its own HTML content (`</foreignObject>`)
    if (this.#contexts.length > 1) {
      const adjusted = SVG_NAMES.get(name);
      if (adjusted !== undefined && (this.#open.get(adjusted) ?? 0) > 0) return adjusted;
    }
    return context === NONE && name === 'image' ? 'img' : name;
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
      while (stack.length > 0 && impliesClose.has(stack[stack.length - 1]!)) this.#popElement();
    }
    if (!VOID.has(name)) {
      this.#stack.push(name);
      this.#open.set(name, (this.#open.get(name) ?? 0) + 1);
      if (name === 'svg') this.#contexts.push(SVG);
      else if (name === 'math') this.#contexts.push(MATHML);
      else if (INTEGRATION.has(name)) this.#contexts.push(NONE);
    }
    this.#tagname = name;
    this.#attribs = this.#skipping ? null : {};
  }

  onattribname(start: number, endIndex: number): void {
    if (this.#attribs) this.#attribname = lowerName(this.#html, start, endIndex);
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
    // the first of duplicate attributes wins; `__proto__` is dropped (the Parser's assignment is a no-op)
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
    if (this.#stack[this.#stack.length - 1] === name) this.#popElement();
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
      while (stack[stack.length - 1] !== name) this.#popElement();
      this.#popElement();
    } else if (name === 'p') {
      // `</p>` without an open paragraph is an empty paragraph.
      this.#emitOpenTag('p');
      this.#endOpenTag();
      if (this.#stack[this.#stack.length - 1] === 'p') this.#popElement();
    }
  }

  /** Takes the innermost element off the stack (and its foreign context), returning its name. */
  #unstack(): string {
    const name = this.#stack.pop()!;
    this.#open.set(name, this.#open.get(name)! - 1);
    if (name === 'svg' || name === 'math' || INTEGRATION.has(name)) this.#contexts.pop();
    return name;
  }

  #popElement(): void {
    const name = this.#unstack();
    if (this.#skipping) {
      if (this.#stack.length === this.#skipFrom) this.#skipFrom = -1;
      return;
    }
    this.flushText();
    this.#sink.close(name);
  }

  #dropUnfinishedTag(): void {
    const name = this.#tagname;
    this.#tagname = '';
    this.#attribs = null;
    if (!VOID.has(name) && this.#stack[this.#stack.length - 1] === name) this.#unstack();
  }

  oncdata(start: number, endIndex: number, offset: number): void {
    if (this.#skipping) return;
    const value = this.#html.slice(start, endIndex - offset);
    if (this.isInForeignContext()) this.#text += value;
    else this.#comment(`[CDATA[${value}]]`);
  }

  oncomment(start: number, endIndex: number, offset: number): void {
    if (!this.#skipping) this.#comment(this.#html.slice(start, endIndex - offset));
  }

  #comment(data: string): void {
    if (!this.#sink.comment) return;
    this.flushText();
    this.#sink.comment(data);
  }

  ondeclaration(start: number, endIndex: number): void {
    // in HTML the tokenizer sends only doctypes here
    this.#instruction('!doctype', `!${this.#html.slice(start, endIndex)}`);
  }

  onprocessinginstruction(start: number, endIndex: number): void {
    const value = this.#html.slice(start, endIndex);
    const end = value.search(/\s|\//);
    this.#instruction(`?${(end < 0 ? value : value.slice(0, end)).toLowerCase()}`, `?${value}`);
  }

  #instruction(name: string, data: string): void {
    if (this.#skipping || !this.#sink.processingInstruction) return;
    this.flushText();
    this.#sink.processingInstruction(name, data);
  }

  onend(): void {
    // the input ended inside a start tag (`<a href="x"` and no `>`): a browser drops the tag, and no sink opened it
    if (this.#tagname !== '') this.#dropUnfinishedTag();
    while (this.#stack.length > 0) this.#popElement();
    this.flushText();
  }
}

/**
 * Streams an HTML string into `sink` as htmlparser2's Parser would (entities decoded, names lower-cased), in time
 * linear in the input whatever its nesting, except that an `<iframe>` left open in a `<noscript>` ends with it, as in
 * a browser (`closeRawTextInNoscript`). `between` runs between the 64 KB slices the input is written in (a
 * budget check).
 */
export function streamHtml(source: string, sink: HtmlEventSink, between?: () => void): void {
  const html = closeRawTextInNoscript(source);
  const tokenizer = new FastTokenizer({ decodeEntities: true }, new EventHandler(html, sink));
  if (html.length <= WRITE_CHUNK) tokenizer.write(html);
  else {
    for (let i = 0; i < html.length; i += WRITE_CHUNK) {
      tokenizer.write(html.slice(i, i + WRITE_CHUNK));
      between?.();
    }
  }
  tokenizer.end();
}
