/**
 * The reading order of a run of right-to-left text (Hebrew, Arabic) on a PDF page. pdf.js gives each word of it as an
 * item in reading order (its `dir` 'rtl'), but the items in the order the page sets them, left to right: joined as
 * they come, a sentence reads last word first. The items are read right to left instead, but for a run of
 * left-to-right ones among them (a number, a Latin name of several words), which keeps its own order: the reordering
 * of the Unicode bidirectional algorithm for a right-to-left paragraph (rule L2, levels 1 and 2).
 */

/** An item's text, whether it is right-to-left, and whether a space set it apart from the item before it. */
export interface Piece {
  text: string;
  rtl: boolean;
  space: boolean;
}

/** The text of a right-to-left run from its pieces in page order. */
export function readingOrder(pieces: readonly Piece[]): string {
  // runs: each right-to-left piece alone, each stretch of left-to-right pieces together
  const runs: Piece[][] = [];
  for (const piece of pieces) {
    const last = runs[runs.length - 1];
    if (last && !piece.rtl && !last[0]!.rtl) last.push(piece);
    else runs.push([piece]);
  }
  let text = '';
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i]!;
    // the space that set this run apart from the one on its left in the page comes after it in reading order
    text += run.map((piece, j) => (j > 0 && piece.space ? ' ' : '') + piece.text).join('');
    if (i > 0 && run[0]!.space) text += ' ';
  }
  return text;
}
