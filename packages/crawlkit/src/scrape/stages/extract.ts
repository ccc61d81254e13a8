import type { ExtractionRequest } from '../../extraction/extraction.js';
import { scrapeExtractionSettings } from '../extraction-settings.js';
import { pageCacheMemoFor } from '../page-cache-memo.js';
import type { ScrapeStage } from '../scrape-state.js';

/**
 * Extracts the page in a worker thread (what its formats need: markdown, html, links, ...), unless the render judge
 * already did in the same call as its verdict. The extraction of a cached page is memoised per cache entry and
 * settings. Its budget counts from its own start (a slow fetch does not eat it); the page's timeout bounds fetch
 * and extraction together.
 */
export const extractStage: ScrapeStage = {
  name: 'extract',
  async run(state) {
    const { ctx, deadline, store, cache } = state;
    deadline.extracting();
    const request: ExtractionRequest = {
      page: state.input!,
      settings: scrapeExtractionSettings(state),
      budgetMs: ctx.options.extractionBudgetMs,
    };
    const judged = state.judgedExtraction;
    const extract = () =>
      judged ? Promise.resolve(judged) : ctx.extraction.extract(request, state.signal, deadline.running);
    const version =
      cache.cachedAt !== undefined && cache.length !== undefined
        ? { cachedAt: cache.cachedAt, length: cache.length }
        : undefined;
    const extraction =
      store && version
        ? await pageCacheMemoFor(store).extraction(cache.key, version, request.settings, extract)
        : await extract();
    state.extraction = extraction;
    state.warnings.push(...extraction.warnings);
  },
};
