import type { Capture } from './capture.js';

/**
 * A `<ruby>`: its base text whole, then its readings in parentheses, `東京(とうきょう)` for
 * `<ruby>東<rt>とう</rt>京<rt>きょう</rt></ruby>`. Markdown has no ruby; inline, the readings would split the word
 * (`東とう京きょう`, which a search for `東京` misses), and dropped, they would be lost. `<rp>` is the fallback
 * parentheses a browser without ruby shows: they are written here anyway. Markup inside a ruby (a link) keeps its
 * text only.
 */
export class RubyCapture implements Capture {
  #base = '';
  #readings = '';
  /** Open elements inside the ruby, and how deep the `<rt>` and `<rp>` being read are (0: not in one). */
  #depth = 0;
  #inReading = 0;
  #inFallback = 0;

  open(name: string): boolean {
    this.#depth++;
    if (name === 'rp' && !this.#inFallback) this.#inFallback = this.#depth;
    else if (name === 'rt' && !this.#inReading) this.#inReading = this.#depth;
    return true;
  }

  text(data: string): void {
    if (this.#inFallback) return;
    if (this.#inReading) this.#readings += data;
    else this.#base += data;
  }

  close(): boolean {
    if (this.#depth === 0) return true;
    if (this.#inFallback === this.#depth) this.#inFallback = 0;
    if (this.#inReading === this.#depth) this.#inReading = 0;
    this.#depth--;
    return false;
  }

  /** The ruby as text: the base, then the readings in parentheses when it has any (the base's last space after). */
  finish(): string {
    const readings = this.#readings.replace(/\s+/g, '');
    if (!readings) return this.#base;
    const base = this.#base.trimEnd();
    return `${base}(${readings})${base.length < this.#base.length ? ' ' : ''}`;
  }
}
