/** PNG, JPEG, TIFF and WebP images, read by OCR as a one-page document (the `image` parser). */
import { recognize } from '../ocr/engine.js';
import { ocrMarkdown } from '../ocr/text.js';
import { deadlineError } from '../errors.js';
import type { Converter } from '../types.js';

export const image: Converter = {
  format: 'image',
  async convert(bytes, options) {
    const deadline = options.ocr?.deadline ?? options.deadline;
    const text = await recognize(bytes, deadline);
    if (text === undefined) throw deadlineError('image by OCR');
    return { format: 'image', markdown: ocrMarkdown(text), metadata: { numPages: 1 }, pages: 1, warnings: [] };
  },
};
