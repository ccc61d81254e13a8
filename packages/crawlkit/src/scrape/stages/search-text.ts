import { redactUrl } from '@crawlkit/fetcher';

import type { ScrapeStage } from '../scrape-state.js';
import { markdownText } from '../../search/markdown-text.js';

/**
 * The page's text for the store's search index (title, description, main content), when the store keeps one: the
 * cache write stores it with the page, and a job's result with the document. Zero data retention has no store, so
 * its pages never enter the index.
 */
export const searchTextStage: ScrapeStage = {
  name: 'search-text',
  run(state) {
    if (!state.store?.search || !state.extraction) return;
    const { metadata, markdown } = state.extraction;
    const text = (value: unknown) =>
      typeof value === 'string' ? value : Array.isArray(value) ? String(value[0] ?? '') : '';
    state.searchText = {
      url: redactUrl(state.page!.url),
      title: text(metadata.title) || text(metadata.ogTitle),
      description: text(metadata.description) || text(metadata.ogDescription),
      // Made by the extraction worker; a memoised extraction of an older version may lack it.
      text: state.extraction.searchText ?? markdownText(markdown ?? ''),
    };
  },
};
