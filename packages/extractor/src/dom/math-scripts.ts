// MathJax 2 keeps each formula's TeX in a `<script type="math/tex">` beside the glyphs it typesets (whose copy the
// markdown skips by class). Every `script` leaves the page before the main content is chosen and before the markdown
// is written, so the formula went with it; as MathML holding that TeX it is the page's text, as KaTeX's is.
import { isText, type Element } from 'domhandler';

import { newElement, newText } from './nodes.js';

/** `<script type="math/tex">` (MathJax 2): its text is the TeX of an inline formula, or a display one by its mode. */
export function isMathScript(attribs: Record<string, string>): 'inline' | 'display' | undefined {
  const type = attribs.type?.toLowerCase();
  if (!type?.startsWith('math/tex')) return undefined;
  return type.includes('mode=display') ? 'display' : 'inline';
}

/**
 * Collects MathJax 2's formula scripts as the parser creates elements, then turns each into `<math>` holding its TeX
 * as an `application/x-tex` annotation (`display="block"` for a display formula), in place, once the tree is built.
 */
export class MathScripts {
  readonly #found: Element[] = [];

  /** Notes `el` when it is a formula script; called for every element, in document order. */
  observe(el: Element): void {
    if (el.name === 'script' && isMathScript(el.attribs)) this.#found.push(el);
  }

  /** Rewrites every observed script. */
  place(): void {
    for (const el of this.#found) {
      const tex = el.children.map((c) => (isText(c) ? c.data : '')).join('');
      const annotation = newElement('annotation', { encoding: 'application/x-tex' }, [newText(tex)]);
      const semantics = newElement('semantics', {}, [annotation]);
      annotation.children[0]!.parent = annotation;
      annotation.parent = semantics;
      semantics.parent = el;
      const display = isMathScript(el.attribs) === 'display';
      el.name = 'math';
      el.type = 'tag' as Element['type'];
      el.attribs = display ? { display: 'block' } : {};
      el.children = [semantics];
    }
  }
}
