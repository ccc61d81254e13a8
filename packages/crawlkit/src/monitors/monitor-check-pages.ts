/**
 * A closed check's pages, kept in chunks of `PAGES_PER_CHUNK` in the store's history (`<checkId>#<n>`), the check
 * itself holding how many pages of each status each chunk has: a close writes the pages a chunk at a time, and a
 * page of the check's detail reads only the chunks it returns, whatever the size of the check. A check closed before
 * (codec version 1) holds its pages itself and is read as it is.
 */
import type { Store } from '@crawlkit/store';

import { monitorCheckPagesCodec } from '../codec/monitor-records.js';
import { historyRecord } from '../codec/history-record.js';
import { CrawlkitError } from '../errors.js';
import type { JudgedInput } from './monitor-judge.js';
import type { MonitorCheckValue } from './monitor-store.js';

type Closed = NonNullable<MonitorCheckValue['closed']>;
type Page = NonNullable<Closed['pages']>[number];
type Status = Page['status'];
export type ChunkCounts = NonNullable<Closed['chunks']>[number];

/** Pages a chunk holds: a few hundred pages with their diffs are tens to hundreds of KB of JSON. */
export const PAGES_PER_CHUNK = 500;

const STATUSES = ['same', 'changed', 'new', 'removed', 'error'] as const satisfies readonly Status[];

const chunks = historyRecord('crawlkit:monitor-check-pages', monitorCheckPagesCodec);
const chunkKey = (checkId: string, n: number) => `${checkId}#${n}`;

const countsOf = (pages: readonly Page[]): ChunkCounts => {
  const counts: ChunkCounts = { same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  for (const page of pages) counts[page.status]++;
  return counts;
};

/**
 * Writes the pages of a check being closed as they are made, a chunk at a time (stamped `at`), so that a close holds
 * one chunk of pages, not the check's. Each chunk's pages given a text are judged (`judge`) before it is written.
 */
export class PageChunks {
  /** The counts of the chunks written. */
  readonly counts: ChunkCounts[] = [];
  readonly #store: Store;
  readonly #checkId: string;
  readonly #at: number;
  readonly #judge: ((inputs: JudgedInput[]) => Promise<void>) | undefined;
  #pages: Page[] = [];
  #texts: JudgedInput[] = [];

  constructor(store: Store, checkId: string, at: number, judge?: (inputs: JudgedInput[]) => Promise<void>) {
    this.#store = store;
    this.#checkId = checkId;
    this.#at = at;
    this.#judge = judge;
  }

  async add(page: Page, text?: string): Promise<void> {
    this.#pages.push(page);
    if (text !== undefined && this.#judge) this.#texts.push({ page, text });
    if (this.#pages.length >= PAGES_PER_CHUNK) await this.#write();
  }

  /** Writes the last chunk; resolves to the chunks' counts. */
  async finish(): Promise<ChunkCounts[]> {
    if (this.#pages.length > 0) await this.#write();
    return this.counts;
  }

  async #write(): Promise<void> {
    const [pages, texts] = [this.#pages, this.#texts];
    [this.#pages, this.#texts] = [[], []];
    if (texts.length > 0) await this.#judge?.(texts);
    await chunks.write(this.#store, chunkKey(this.#checkId, this.counts.length), { pages }, this.#at);
    this.counts.push(countsOf(pages));
  }
}

/** Writes the pages of a check being closed, a chunk at a time (stamped `at`); resolves to the chunks' counts. */
export async function writeChunks(store: Store, checkId: string, pages: readonly Page[], at: number) {
  const writer = new PageChunks(store, checkId, at);
  for (const page of pages) await writer.add(page);
  return writer.finish();
}

/** A closed check's summary from its chunks' counts. */
export function summaryOfChunks(counts: readonly ChunkCounts[]): Closed['summary'] {
  const summary: Closed['summary'] = { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  for (const chunk of counts) {
    for (const status of STATUSES) summary[status] += chunk[status];
    summary.totalPages += inChunk(chunk, undefined);
  }
  return summary;
}

/** Deletes the `count` chunks of a check's pages. */
export async function deleteChunks(store: Store, checkId: string, count: number): Promise<void> {
  for (let n = 0; n < count; n++) await chunks.delete(store, chunkKey(checkId, n));
}

export interface PageQuery {
  skip: number;
  limit: number;
  /** Only the pages of this status. */
  status?: Status | undefined;
}

/** `limit` pages from the `skip`th (of `status`, else of all), and how many there are. */
export function pagesOf(all: readonly Page[], { skip, limit, status }: PageQuery): { pages: Page[]; total: number } {
  const kept = status === undefined ? all : all.filter((page) => page.status === status);
  return { pages: kept.slice(skip, skip + limit), total: kept.length };
}

const inChunk = (counts: ChunkCounts, status: Status | undefined) =>
  status === undefined ? counts.same + counts.changed + counts.new + counts.removed + counts.error : counts[status];

/** The pages a query asks of a closed check, read from the chunks that hold them. */
export async function readChunks(
  store: Store,
  checkId: string,
  closed: Closed,
  query: PageQuery,
): Promise<{ pages: Page[]; total: number }> {
  if (closed.pages) return pagesOf(closed.pages, query);
  const { skip, limit, status } = query;
  const counts = closed.chunks ?? [];
  const total = counts.reduce((sum, chunk) => sum + inChunk(chunk, status), 0);
  const pages: Page[] = [];
  let before = 0;
  for (const [n, chunk] of counts.entries()) {
    if (pages.length >= limit) break;
    const here = inChunk(chunk, status);
    if (before + here > skip && here > 0) {
      const read = await chunks.read(store, chunkKey(checkId, n));
      if (!read) {
        throw new CrawlkitError(
          'STORE_RECORD_INVALID',
          `Pages ${n} of the monitor check ${checkId} are not in the store.`,
        );
      }
      const from = Math.max(0, skip - before);
      pages.push(...pagesOf(read.pages, { skip: from, limit: limit - pages.length, status }).pages);
    }
    before += here;
  }
  return { pages, total };
}
