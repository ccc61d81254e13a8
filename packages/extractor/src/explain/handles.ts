// CSS selectors for the elements of a page, for the blocks `explainPage` lists and the includeTags and excludeTags
// it suggests: each matches its element alone.
import { selectAll } from 'css-select';
import { isTag, type AnyNode, type Document, type Element } from 'domhandler';

import { elements } from '../dom/walk.js';

/** A class or id usable in a selector as it is (no escaping needed). */
const PLAIN_NAME = /^-?[A-Za-z_][\w-]*$/;

/**
 * A tag name as a selector's type: the parser keeps any name a page writes (`o:p` and `st1:place` from Word,
 * `p"x` from broken markup), and such a name as written is another selector or none (`:place` is read as a
 * pseudo-class), so what a CSS name cannot hold is escaped, as `CSS.escape` does.
 */
function typeSelector(name: string): string {
  if (PLAIN_NAME.test(name)) return name;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]!;
    const code = ch.charCodeAt(0);
    if (code === 0) out += '\uFFFD';
    else if (code < 0x20 || code === 0x7f || (/\d/.test(ch) && (i === 0 || (i === 1 && name[0] === '-')))) {
      out += `\\${code.toString(16)} `;
    } else if (/[\w-]/.test(ch) || code >= 0x80) out += ch;
    else out += `\\${ch}`;
  }
  return out;
}

/** Selectors that match one element of a document. The document must not change while they are asked for. */
export class Handles {
  readonly #document: Document;
  readonly #ids = new Map<string, number>();
  readonly #short = new Map<Element, string>();

  constructor(document: Document) {
    this.#document = document;
    for (const el of elements(document)) {
      const id = el.attribs['id'];
      if (id) this.#ids.set(id, (this.#ids.get(id) ?? 0) + 1);
    }
  }

  /**
   * A child-combinator path to `el` from its nearest ancestor with an id of its own (or from `body`), cheap to build:
   * `#main > div:nth-of-type(2) > p:nth-of-type(3)`.
   */
  path(el: Element): string {
    const steps: string[] = [];
    let node: Element = el;
    for (;;) {
      const id = this.#uniqueId(node);
      if (id) {
        steps.unshift(id);
        break;
      }
      const parent = node.parent;
      const same = parent ? parent.children.filter((c): c is Element => isTag(c) && c.name === node.name) : [];
      const type = typeSelector(node.name);
      steps.unshift(same.length > 1 ? `${type}:nth-of-type(${same.indexOf(node) + 1})` : type);
      if (!parent || !isTag(parent) || node.name === 'body' || parent.name === 'html') break;
      node = parent;
    }
    return steps.join(' > ');
  }

  /**
   * The shortest selector this finds for `el` alone: `#id`, `tag`, `tag.class`, `tag.class.class`, else `path(el)`.
   * Each candidate is checked against the whole document, so this is for a few elements, not for every block.
   */
  of(el: Element): string {
    const cached = this.#short.get(el);
    if (cached !== undefined) return cached;
    const handle = this.#uniqueId(el) ?? this.#byTagOrClass(el) ?? this.path(el);
    this.#short.set(el, handle);
    return handle;
  }

  #uniqueId(el: Element): string | null {
    const id = el.attribs['id'];
    return id && PLAIN_NAME.test(id) && this.#ids.get(id) === 1 ? `#${id}` : null;
  }

  #byTagOrClass(el: Element): string | null {
    const classes = (el.attribs['class'] ?? '').split(/\s+/).filter((c) => PLAIN_NAME.test(c));
    const type = typeSelector(el.name);
    const candidates = [type, ...classes.map((c) => `${type}.${c}`)];
    if (classes.length > 1) candidates.push(`${type}.${classes.join('.')}`);
    for (const selector of candidates) {
      const found = selectAll<AnyNode, Element>(selector, this.#document);
      if (found.length === 1 && found[0] === el) return selector;
    }
    return null;
  }
}
