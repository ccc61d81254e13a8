/** PNG, JPEG, TIFF and WebP images, read by OCR as a one-page document (the `image` parser). */
import { ocrPagesToMarkdown, pageToMarkdown } from '@crawlkit/extractor';

import { recognize } from '../ocr/engine.js';
import { deadlineError, DocumentError } from '../errors.js';
import { imageDamage } from './image-damage.js';
import type { Converter } from '../types.js';

export const image: Converter = {
  format: 'image',
  async convert(bytes, options) {
    const damage = imageDamage(bytes);
    if (damage) {
      throw new DocumentError(
        'SCRAPE_OCR_FAILED',
        `The image could not be read by OCR: ${damage}: fetch it again, or open and save it again in an image tool.`,
      );
    }
    const deadline = options.ocr?.deadline ?? options.deadline;
    const read = await recognize(bytes, deadline);
    if (read === undefined) throw deadlineError('image by OCR');
    const markdown = read.lines.length ? ocrPagesToMarkdown([read.lines])[0]! : pageToMarkdown(read.text);
    return { format: 'image', markdown, metadata: { numPages: 1 }, pages: 1, warnings: [] };
  },
};
