/** PNG, JPEG, TIFF and WebP images, read by OCR as a one-page document (the `image` parser). */
import { pageToMarkdown } from '@crawlkit/extractor';

import { recognize } from '../ocr/engine.js';
import { deadlineError } from '../errors.js';
import type { Converter } from '../types.js';

export const image: Converter = {
  format: 'image',
  async convert(bytes, options) {
    const deadline = options.ocr?.deadline ?? options.deadline;
    const text = await recognize(bytes, deadline);
    if (text === undefined) throw deadlineError('image by OCR');
    return { format: 'image', markdown: pageToMarkdown(text), metadata: { numPages: 1 }, pages: 1, warnings: [] };
  },
};
