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
import type { MonitorCheckValue } from './monitor-store.js';

type Closed = NonNullable<MonitorCheckValue['closed']>;
type Page = NonNullable<Closed['pages']>[number];
type Status = Page['status'];
export type ChunkCounts = NonNullable<Closed['chunks']>[number];

/** Pages a chunk holds: a few hundred pages with their diffs are tens to hundreds of KB of JSON. */
export const PAGES_PER_CHUNK = 500;

const chunks = historyRecord('crawlkit:monitor-check-pages', monitorCheckPagesCodec);
const chunkKey = (checkId: string, n: number) => `${checkId}#${n}`;

const countsOf = (pages: readonly Page[]): ChunkCounts => {
  const counts: ChunkCounts = { same: 0, changed: 0, new: 0, removed: 0, error: 0 };
  for (const page of pages) counts[page.status]++;
  return counts;
};

/** Writes the pages of a check being closed, a chunk at a time (stamped `at`); resolves to the chunks' counts. */
export async function writeChunks(store: Store, checkId: string, pages: readonly Page[], at: number) {
  const counts: ChunkCounts[] = [];
  for (let n = 0; n * PAGES_PER_CHUNK < pages.length; n++) {
    const chunk = pages.slice(n * PAGES_PER_CHUNK, (n + 1) * PAGES_PER_CHUNK);
    await chunks.write(store, chunkKey(checkId, n), { pages: chunk }, at);
    counts.push(countsOf(chunk));
  }
  return counts;
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
