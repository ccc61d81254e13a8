import { joinBlocks, prefixLines } from './blocks.js';
import { Container } from './container.js';
import type { Stack } from './stack.js';

/** Fragments footnote references point to (`#fn:1`, `#user-content-fn-1`, Wikipedia's `#cite_note-3`). */
const FOOTNOTE_FRAGMENT = /^(?:user-content-)?(?:fn|footnote|cite_note|note|ftn|endnote)/i;
/** Fragments of a note's link back to its reference (`#fnref:1`, `#cite_ref-3`). */
const FOOTNOTE_BACKREF = /^(?:user-content-)?(?:fnref|cite_ref|footnote-ref|ftnref)/i;
const REF_CLASS = /(?:^|\s)footnote-ref(?:erence)?(?:\s|$)/;

/** A note's link back to its reference (GitHub's `data-footnote-backref`, `role="doc-backlink"`): dropped. */
export function isFootnoteBackref(attribs: Record<string, string>, fragment: string): boolean {
  return (
    attribs['data-footnote-backref'] !== undefined || attribs.role === 'doc-backlink' || FOOTNOTE_BACKREF.test(fragment)
  );
}

/**
 * A link to a footnote (`data-footnote-ref`, `role="doc-noteref"`, docutils' `footnote-reference`, or a link in
 * `<sup>` to a footnote-like fragment): written `[^label]`.
 */
export function isFootnoteRef(attribs: Record<string, string>, fragment: string, inSup: boolean): boolean {
  return (
    attribs['data-footnote-ref'] !== undefined ||
    attribs.role === 'doc-noteref' ||
    REF_CLASS.test(attribs.class ?? '') ||
    (inSup && FOOTNOTE_FRAGMENT.test(fragment))
  );
}

/** The page's footnote labels by the `id` their references point to. */
export class Footnotes {
  readonly #labels = new Map<string, string>();

  get size(): number {
    return this.#labels.size;
  }

  /** The label of the note whose element has this `id`, when a reference pointed to it. */
  label(id: string): string | undefined {
    return this.#labels.get(id);
  }

  /** The label of a reference to `fragment` reading `text`: its letters and digits, else its number in the page. */
  refer(fragment: string, text: string): string {
    let label = this.#labels.get(fragment);
    if (label === undefined) {
      label = text.replace(/[^\p{L}\p{N}_-]+/gu, '') || String(this.#labels.size + 1);
      this.#labels.set(fragment, label);
    }
    return label;
  }
}

/** A block a footnote reference points at (docutils' `<aside role="doc-footnote">`): `[^label]: ...`. */
export function openFootnote(stack: Stack, label: string, cur: Container): boolean {
  cur.boundary();
  const note = new Container('dd');
  stack.push(note);
  stack.frames.push({
    close: () => {
      stack.pop();
      const text = joinBlocks(note.takeBlocks(), false);
      if (text !== '') stack.cur.pushBlock({ kind: 'other', text: prefixLines(text, `[^${label}]: `, '    ', '') });
    },
  });
  return true;
}
