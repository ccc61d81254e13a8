import type { ExtractionRequest } from '../../extraction/extraction.js';
import { formatsReadContent, scrapeExtractionSettings } from '../extraction-settings.js';
import { pageCacheMemoFor } from '../page-cache-memo.js';
import { reportExplanation } from '../explanation.js';
import type { ScrapeStage } from '../scrape-state.js';
import { emptyPageNote } from '../empty-page.js';
import { softNotFoundNote } from '../soft-not-found.js';
import { extractionWatch } from '../timings.js';
import { readStoredExtraction, storedExtractionKey, writeStoredExtraction } from '../stored-extraction.js';

/**
 * Extracts the page in a worker thread (what its formats need: markdown, html, links, ...), unless the render judge
 * already did in the same call as its verdict. The extraction of a cached page is memoised per cache entry and
 * settings, and for a page with validators also kept in the page cache (`stored-extraction.ts`); one read back from
 * there is not memoised again: the store holds it, and a new process's recrawl holding each of its pages' extractions
 * in memory paid for them in garbage collection. Its budget counts
 * from its own start (a slow fetch does not eat it); the page's timeout bounds fetch and extraction together.
 */
export const extractStage: ScrapeStage = {
  name: 'extract',
  async run(state) {
    const { ctx, deadline, store, cache } = state;
    const { kind } = state.input!;
    if ((kind === 'unsupported' || kind === 'document') && !formatsReadContent(state)) {
      // A file no format reads (an image asked for as `rawBase64`) is not converted: its bytes are the answer.
      state.extraction = { metadata: {}, warnings: [] };
      return;
    }
    deadline.extracting();
    const request: ExtractionRequest = {
      page: state.input!,
      settings: scrapeExtractionSettings(state),
      budgetMs: ctx.options.extractionBudgetMs,
    };
    const judged = state.judgedExtraction;
    const page = state.page!;
    // A copy served from the cache may have its extraction kept beside it (another process fetched it).
    const served = cache.state === 'hit' || cache.state === 'revalidated';
    const keptKey = served ? storedExtractionKey(state, request.settings) : undefined;
    if (keptKey) cache.keptKey = keptKey;
    let built = false;
    let keptHash: string | undefined;
    const extract = async () => {
      if (judged) return judged;
      if (keptKey) {
        const kept = await readStoredExtraction(store!, keptKey, page.fetchedAt!);
        if (kept) {
          keptHash = kept.contentHash;
          return kept.extraction;
        }
      }
      built = true;
      return ctx.extraction.extract(request, state.signal, extractionWatch(state));
    };
    const version =
      cache.cachedAt !== undefined && cache.length !== undefined
        ? { cachedAt: cache.cachedAt, length: cache.length }
        : undefined;
    const extraction =
      store && version
        ? await pageCacheMemoFor(store).extraction(cache.key, version, request.settings, extract, () => built)
        : await extract();
    state.extraction = extraction;
    if (extraction.explained) reportExplanation(state.input!.url, extraction.explained);
    if (keptHash !== undefined) state.contentHash = keptHash;
    if (keptKey && built) await writeStoredExtraction(state, keptKey, page.fetchedAt!, extraction);
    state.warnings.push(...extraction.warnings);
    const notFound =
      kind === 'html' ? softNotFoundNote(page.status, extraction.metadata.title, extraction.markdown) : undefined;
    if (notFound) {
      state.warnings.push(notFound);
      state.softNotFound = true;
    }
    // An empty result of `includeTags`/`excludeTags` is theirs (a selector matching nothing says so), not the page's
    const { includeTags, excludeTags } = request.settings;
    const selected = (includeTags?.length ?? 0) + (excludeTags?.length ?? 0) > 0;
    const empty =
      kind === 'html' && !selected
        ? emptyPageNote(page.status, page.engine, extraction.markdown, state.warnings)
        : undefined;
    if (empty) state.warnings.push(empty);
  },
};
