import { Tokenizer } from 'htmlparser2';

/** The fields of htmlparser2's Tokenizer that its skip reads (private in its types, plain properties at runtime). */
interface TokenizerState {
  buffer: string;
  index: number;
  offset: number;
}

/**
 * htmlparser2's Tokenizer with its skip to a given character (the next `<` in script and style text, the `>` that
 * ends a comment or declaration) done by `String#indexOf` instead of a `charCodeAt` loop: the same stops, the same
 * events. The loop was a fifth of a whole-page scrape of a page that is mostly script (WCXB dev 0588, 5.3 MB).
 */
export class FastTokenizer extends Tokenizer {}

Object.defineProperty(FastTokenizer.prototype, 'fastForwardTo', {
  value: function fastForwardTo(this: TokenizerState, c: number): boolean {
    const at = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
    if (at >= 0) {
      this.index = at + this.offset;
      return true;
    }
    // As the loop leaves it: on the last character (the parse loop steps past it).
    this.index = this.buffer.length + this.offset - 1;
    return false;
  },
});
