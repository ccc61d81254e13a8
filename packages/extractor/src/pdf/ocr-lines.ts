/**
 * An OCR engine's lines (Tesseract's, each with its box and baseline) as markdown, by the rules a PDF's text layer is
 * read with (`structure.ts`): lines wrapped by the page joined into paragraphs, list items, words hyphenated across
 * a line break rejoined. The engine's sizes are its boxes' heights, too rough to tell a heading by, so none is made
 * by size (the lines are `scanned`, like an OCR text layer inside a PDF).
 */
import type { Line } from './layout.js';
import { bodyStyle, linesToMarkdown } from './structure.js';

/** A line of text as an OCR engine found it on an image, in pixels from the image's top left corner. */
export interface OcrLine {
  text: string;
  /** Left and right edge. */
  left: number;
  right: number;
  /** Baseline, from the image's top. */
  baseline: number;
  /** Height of the line's row (its ascenders to its descenders): its type size, in pixels. */
  height: number;
}

/** Heights within this share of a page's median are its body size: a box's height varies by a pixel or two. */
const SAME_SIZE = 0.2;

const median = (values: number[]): number => [...values].sort((p, q) => p - q)[Math.floor(values.length / 2)] ?? 0;

function toLines(page: readonly OcrLine[]): Line[] {
  const found = page.filter((line) => line.text.trim() !== '');
  const usual = median(found.map((line) => line.height));
  return found.map((line) => {
    const text = line.text.trim().replace(/\s+/g, ' ');
    return {
      text,
      x: line.left,
      right: line.right,
      y: -line.baseline,
      size: Math.abs(line.height - usual) <= usual * SAME_SIZE ? usual : line.height,
      bold: false,
      scanned: true,
      column: 0,
      cells: [{ text, x: line.left, right: line.right }],
    };
  });
}

/**
 * Pages of OCR lines (the images of one document, at one scale) as each page's markdown: the body's size and line
 * spacing are the document's, its paragraphs found page by page. `joinPages` joins a paragraph running across pages.
 */
export function ocrPagesToMarkdown(pages: readonly (readonly OcrLine[])[]): string[] {
  const lines = pages.map(toLines);
  const body = bodyStyle(lines);
  return lines.map((page, i) => linesToMarkdown(page, body, i + 1));
}
