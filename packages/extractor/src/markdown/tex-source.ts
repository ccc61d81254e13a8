import type { Capture } from './capture.js';
import type { RawEvent } from './raw-html.js';

/**
 * Classes of an element holding a formula's TeX source between MathJax delimiters, for MathJax to typeset in the
 * browser: Sphinx's `math` (`<span class="math notranslate nohighlight">\(x^2\)</span>`, `<div class="math">\[...\]`)
 * and pymdownx's `arithmatex` (MkDocs Material).
 */
const TEX_CLASS = /(?:^|\s)(?:math|arithmatex)(?:\s|$)/;
const INLINE = /^\s*\\\(([\s\S]*)\\\)\s*$/;
const DISPLAY = /^\s*\\\[([\s\S]*)\\\]\s*$/;

/** Whether an element may hold TeX source (`TEX_CLASS` on a `<span>` or `<div>`). */
export function mayHoldTex(name: string, cls: string): boolean {
  return (
    (name === 'span' || name === 'div') && (cls.includes('math') || cls.includes('arithmatex')) && TEX_CLASS.test(cls)
  );
}

/**
 * Records such an element's subtree. `tex()` is its formula when the element holds only text between `\(...\)`
 * or `\[...\]`; anything else (MathJax's output in place of the source, words) is replayed as it came.
 */
export class TexSourceCapture implements Capture {
  readonly events: RawEvent[];
  #depth = 0;

  constructor(name: string, attribs: Record<string, string>) {
    this.events = [{ open: name, attribs }];
  }

  open(name: string, attribs: Record<string, string>): boolean {
    this.events.push({ open: name, attribs });
    this.#depth++;
    return true;
  }

  text(data: string): void {
    this.events.push(data);
  }

  close(name: string): boolean {
    this.events.push({ close: name });
    if (this.#depth === 0) return true;
    this.#depth--;
    return false;
  }

  /** The formula and whether it is displayed, or undefined when the element is not TeX source alone. */
  tex(): { tex: string; display: boolean } | undefined {
    let text = '';
    for (let i = 1; i < this.events.length - 1; i++) {
      const event = this.events[i]!;
      if (typeof event !== 'string') return undefined;
      text += event;
    }
    const display = DISPLAY.exec(text);
    if (display) return { tex: display[1]!.trim(), display: true };
    const inline = INLINE.exec(text);
    return inline ? { tex: inline[1]!.trim(), display: false } : undefined;
  }
}
