import { redactUrl } from '@crawlkit/fetcher';
import { searchTextDigest } from '@crawlkit/store';

import { indexesPage } from '../extraction-settings.js';
import { pageGone } from '../page-status.js';
import type { ScrapeStage } from '../scrape-state.js';
import { markdownText } from '../../search/markdown-text.js';
import { searchHead, type SearchHead } from '../../search/search-head.js';

function sameHead(a: SearchHead, b: SearchHead): boolean {
  return a.title === b.title && a.description === b.description;
}

/**
 * The page's text for the store's search index (title, description, main content), when the store keeps one and
 * something stores it (`indexesPage`): the cache write stores it with the page, and a job's result with the
 * document. Zero data retention has no store, so its pages never enter the index. An error page's text is not the
 * page's: see `pageGone`.
 */
export const searchTextStage: ScrapeStage = {
  name: 'search-text',
  run(state) {
    if (!state.extraction || !indexesPage(state)) return;
    const url = redactUrl(state.page!.url);
    const { status } = state.page!;
    // A gone page is indexed with no text: it finds nothing, and hides its older entries (a job's results are kept a
    // day). Another error page is not indexed at all: its text is not the page's, and the page's last text stays.
    if (pageGone(status)) {
      state.searchText = { url, title: '', description: '', text: '', textDigest: searchTextDigest('') };
      return;
    }
    if (status >= 400) return;
    const { metadata, markdown, searchText, searchTextDigest: digest, searchTerms } = state.extraction;
    const head = { url, ...searchHead(metadata) };
    if (searchText === undefined && digest !== undefined) {
      // A kept extraction (`stored-extraction.ts`) keeps the digest, not the text: the store reads the text only if
      // its index does not hold it yet, and then it is made from the markdown, as the extraction worker made it.
      let made: string | undefined;
      state.searchText = {
        ...head,
        get text() {
          return (made ??= markdownText(markdown ?? ''));
        },
        textDigest: digest,
      };
      return;
    }
    // Made by the extraction worker with its digest (both or neither); a memoised extraction of an older version
    // may lack them.
    const body = searchText ?? markdownText(markdown ?? '');
    // Hashed once for the cache entry and the job result, which both keep this text.
    state.searchText = { ...head, text: body, textDigest: digest ?? searchTextDigest(body) };
    // Counted by the worker from the same text and head (a stage since may have set the page's title).
    if (searchTerms && searchText !== undefined && sameHead(searchTerms, head)) {
      state.searchText.counted = { length: searchTerms.length, postings: searchTerms.postings };
    }
  },
};
