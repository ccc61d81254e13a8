/**
 * A check of a monitor's `search` targets. As the check starts, each target's queries run through the engine's search
 * (its web provider, else the pages crawlkit stored), their results (by URL) are kept as the target's latest, and
 * their pages are scraped by a batch job with the monitor's `changeTracking` format. When the check closes, each
 * result is `new` (not among the previous check's results) or `same`, `changed` (with the diff) when its page's
 * content changed since the monitor last scraped it, `error` when its scrape failed; a previous result no longer found
 * is `removed`.
 */
import type { Store } from '@crawlkit/store';

import { batchContextOf, startBatchScrape } from '../api/batch.js';
import { monitorSearchResultsCodec } from '../codec/monitor-records.js';
import { historyRecord } from '../codec/history-record.js';
import { toErrorResponse } from '../errors.js';
import { failedPages, storedDocuments } from '../jobs/stored-results.js';
import type { Runtime } from '../runtime.js';
import { searchModule } from '../lazy-features.js';
import type { SearchResponse } from '../search/run-search.js';
import type { SearchSetup } from '../search/setup.js';
import type { SearchRequestInput } from '../search/request.js';
import type { BatchScrapeRequestInput } from '../v2/jobs.js';
import type { BatchScrapeResponse, ErrorResponse } from '../v2/types.js';
import type { JudgedInput } from './monitor-judge.js';
import { searchBody } from './monitor-search-target.js';
import type { MonitorCheckPage, MonitorCheckValue } from './monitor-store.js';
import type { MonitorTargetMeta } from './monitor-targets.js';

/** Whom a monitor's searches and scrapes are for: its tenant, under the credit limit it was created with. */
export type MonitorOwner = { tenant?: string; creditLimit?: number };

/** What a check's search targets run on: the engine's search, and its batch scrape for the results' pages. */
export interface CheckSearch {
  search(body: SearchRequestInput, owner: MonitorOwner): Promise<SearchResponse | ErrorResponse>;
  scrape(body: BatchScrapeRequestInput, owner: MonitorOwner): Promise<BatchScrapeResponse | ErrorResponse>;
}

/** The engine's search (`setup`: its provider) and batch scrape, for the checks of `rt`. */
export function checkSearch(rt: () => Runtime, setup: SearchSetup): CheckSearch {
  return {
    // The monitor's tenant's: its credits, its credit limit and its turns in the engine's slots.
    // The search's modules load with a check's first search target (lazy-features.ts).
    search: async (body, owner) => (await searchModule()).runSearch(rt(), setup, body, undefined, owner),
    scrape: (body, owner) => startBatchScrape(batchContextOf(rt()), body, owner),
  };
}

export type CheckSearchValue = NonNullable<MonitorCheckValue['searches']>[number];
/** Makes a page of the check (its id derived from the job and URL). */
export type PageMaker = (
  url: string,
  fields: Partial<MonitorCheckPage> & Pick<MonitorCheckPage, 'status'>,
) => MonitorCheckPage;

const lastResults = historyRecord('crawlkit:monitor-search-results', monitorSearchResultsCodec);

/**
 * Runs the monitor's search targets as a check starts (`at`): the searches of the check, and what went wrong. A target
 * one of whose queries failed has no search in the check (and its latest results stay as they were).
 */
export async function runSearches(
  store: Store,
  engine: CheckSearch | undefined,
  monitorId: string,
  meta: MonitorTargetMeta[],
  owner: MonitorOwner,
  at: number,
): Promise<{ searches: CheckSearchValue[]; errors: string[] }> {
  const searches: CheckSearchValue[] = [];
  const errors: string[] = [];
  for (const [target, { id, search }] of meta.entries()) {
    if (!search) continue;
    if (!engine) {
      errors.push(`targets[${target}]: this engine runs no search`);
      continue;
    }
    const urls = new Set<string>();
    let failed: string | undefined;
    for (const query of search.queries) {
      const answer = await engine.search(searchBody(search, query), owner).catch(toErrorResponse);
      if (!answer.success) {
        failed = `targets[${target}] (search "${query}"): ${answer.error}`;
        break;
      }
      for (const result of answer.data.web ?? []) if (result.url) urls.add(result.url);
    }
    if (failed) {
      errors.push(failed);
      continue;
    }
    const key = `${monitorId}\n${id}`;
    const previous = (await lastResults.read(store, key))?.urls ?? [];
    const results = [...urls];
    await lastResults.write(store, key, { urls: results, at }, at);
    let batchId: string | null = null;
    if (results.length > 0) {
      const body = { ...search.scrapeOptions, urls: results, ignoreInvalidURLs: true } as BatchScrapeRequestInput;
      const started = await engine.scrape(body, owner).catch(toErrorResponse);
      if (started.success) batchId = started.id;
      else errors.push(`targets[${target}] (scrape of the results): ${started.error}`);
    }
    searches.push({ target, batchId, results, previous });
  }
  return { searches, errors };
}

/** Deletes the latest results of the monitor's search targets (the monitor is deleted). */
export async function forgetSearches(store: Store, monitorId: string, meta: MonitorTargetMeta[]): Promise<void> {
  for (const { id, search } of meta) if (search) await lastResults.delete(store, `${monitorId}\n${id}`);
}

/**
 * The pages of a search target's check: its results and its previous results no longer found, with what the batch
 * scrape of its results found (`jobStore`; none when it expired or there was none). What a model would judge of each
 * changed and new page (its diff, its markdown) goes to `texts`, when given.
 */
export async function searchPages(
  jobStore: Store | undefined,
  searched: CheckSearchValue,
  page: PageMaker,
  texts: JudgedInput[] | undefined,
): Promise<MonitorCheckPage[]> {
  const previous = new Set(searched.previous);
  const scraped = new Map<string, Partial<MonitorCheckPage> & { text?: string | undefined }>();
  if (jobStore && searched.batchId) {
    for await (const { document: doc } of storedDocuments(jobStore, searched.batchId)) {
      const diff = doc.changeTracking?.changeStatus === 'changed' ? doc.changeTracking.diff : undefined;
      scraped.set(doc.metadata.sourceURL, {
        currentScrapeId: doc.metadata.scrapeId ?? null,
        statusCode: doc.metadata.statusCode,
        ...(diff ? { diff, status: 'changed', text: diff.text } : { text: doc.markdown }),
      });
    }
    for (const failed of await failedPages(jobStore, searched.batchId)) {
      scraped.set(failed.url, { status: 'error', error: failed.error });
    }
  }
  const pages: MonitorCheckPage[] = [];
  for (const url of searched.results) {
    const { text, status, diff, ...fields } = scraped.get(url) ?? {};
    // A result new to the search is `new`, whatever its page's history.
    const kind = status === 'error' || previous.has(url) ? (status ?? 'same') : 'new';
    const made = page(url, { ...fields, status: kind, ...(kind === 'changed' && diff ? { diff } : {}) });
    if (texts && text && (made.status === 'new' || made.status === 'changed')) texts.push({ page: made, text });
    pages.push(made);
  }
  const current = new Set(searched.results);
  for (const url of searched.previous) if (!current.has(url)) pages.push(page(url, { status: 'removed' }));
  return pages;
}
