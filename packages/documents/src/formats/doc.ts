/**
 * Legacy Word (.doc, Word 97-2003): its text, footnotes and endnotes, as paragraphs (word-extractor), and its
 * properties.
 */
import { lazyModule } from '@crawlkit/options/lazy-module';

import { DocumentError } from '../errors.js';
import type { Converter } from '../types.js';
import { docMetadata } from './doc-info.js';

const wordExtractor = lazyModule(() => import('word-extractor'));

function paragraphs(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n+/)
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
}

export const doc: Converter = {
  format: 'doc',
  async convert(bytes) {
    let extracted: { getBody(): string; getFootnotes(): string; getEndnotes(): string };
    try {
      const { default: WordExtractor } = await wordExtractor();
      extracted = await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } catch (error) {
      throw new DocumentError(
        'SCRAPE_DOCUMENT_PARSE_ERROR',
        `The Word 97-2003 document could not be read: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const notes = paragraphs(`${extracted.getFootnotes()}\n${extracted.getEndnotes()}`);
    const markdown = [paragraphs(extracted.getBody()), notes ? `---\n\n${notes}` : ''].filter(Boolean).join('\n\n');
    return { format: 'doc', markdown, metadata: await docMetadata(bytes), warnings: [] };
  },
};
