/**
 * What a change-tracking snapshot keeps of where its markdown came from: a hash of the page as fetched and a hash of
 * the options that shape its markdown. Two scrapes with both hashes equal had the same input to the extractor, so a
 * difference of their markdowns is the extractor's (an upgrade of crawlkit), not the page's (b58).
 */
import { createHash } from 'node:crypto';

import type { ExtractionInput, ExtractionSettings } from '../extraction/extraction.js';

/** The hashes of a snapshot's source: `page` of the page as fetched, `options` of the options that shape markdown. */
export interface SnapshotSource {
  page: string;
  options: string;
}

/**
 * The fields of `ExtractionSettings` that say what to compute beside the markdown (other formats, crawl discovery,
 * the search index, the explanation): they do not change the markdown. Every other field does (`onlyMainContent`,
 * `includeTags`, `excludeTags`, `removeBase64Images`, `markdownRawHtml`, `markdownCaptions`, `markdownEmbeds`, `pdf`,
 * `ocrImages`), and so does any field added to the settings later until it is named here: a new option then compares
 * markdowns, as before this rule.
 */
const NOT_SHAPING_MARKDOWN = new Set<string>([
  'markdown',
  'html',
  'rawHtml',
  'links',
  'images',
  'attributes',
  'collectLinks',
  'searchText',
  'searchTerms',
  'hashContent',
  'explain',
]);

/** The settings of `settings` that shape the markdown, keys sorted (one JSON for the same options). */
export function markdownShaping(settings: ExtractionSettings): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings)
      .filter(([key, value]) => !NOT_SHAPING_MARKDOWN.has(key) && value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/**
 * The source of an extraction: the page's final URL (its links are made absolute against it), content type and kind,
 * and its bytes as fetched (the decoded text, else the body); and the options that shape the markdown.
 */
export function snapshotSource(input: ExtractionInput, settings: ExtractionSettings): SnapshotSource {
  const page = createHash('sha256').update(
    JSON.stringify([input.url, input.contentType, input.kind, input.charset ?? null, input.text !== undefined]),
  );
  if (input.text !== undefined) page.update(input.text);
  else if (input.body !== undefined) page.update(input.body);
  const options = createHash('sha256').update(JSON.stringify(markdownShaping(settings)));
  return { page: page.digest('hex'), options: options.digest('hex') };
}
