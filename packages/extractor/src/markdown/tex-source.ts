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
 * The formula of a recorded element (`RawCapture` unsanitised) when it holds only text between `\(...\)` or
 * `\[...\]`; undefined for anything else (MathJax's output in place of the source, words), replayed as it came.
 */
export function texOf(events: readonly RawEvent[]): { tex: string; display: boolean } | undefined {
  let text = '';
  for (let i = 1; i < events.length - 1; i++) {
    const event = events[i]!;
    if (typeof event !== 'string') return undefined;
    text += event;
  }
  const display = DISPLAY.exec(text);
  if (display) return { tex: display[1]!.trim(), display: true };
  const inline = INLINE.exec(text);
  return inline ? { tex: inline[1]!.trim(), display: false } : undefined;
}
