/** PNG, JPEG, TIFF and WebP images, read by OCR as a one-page document (the `image` parser). */
import { ocrPagesToMarkdown, pageToMarkdown } from '@crawlkit/extractor';

import { recognize } from '../ocr/engine.js';
import { deadlineError } from '../errors.js';
import type { Converter } from '../types.js';

export const image: Converter = {
  format: 'image',
  async convert(bytes, options) {
    const deadline = options.ocr?.deadline ?? options.deadline;
    const read = await recognize(bytes, deadline);
    if (read === undefined) throw deadlineError('image by OCR');
    const markdown = read.lines.length ? ocrPagesToMarkdown([read.lines])[0]! : pageToMarkdown(read.text);
    return { format: 'image', markdown, metadata: { numPages: 1 }, pages: 1, warnings: [] };
  },
};
