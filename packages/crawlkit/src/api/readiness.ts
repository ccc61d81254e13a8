import type { Runtime } from '../runtime.js';

/** No job has this id: looking it up is a round trip to the store that reads nothing. */
const NO_JOB = '00000000-0000-7000-8000-000000000000';

/** What `Crawlkit#checkReady` answers when the store answers. */
export interface ReadyResponse {
  success: true;
  /**
   * Bytes the store can still write, when its backend can tell: free space on the SQLite file's disk, Redis's
   * `maxmemory` less `used_memory`. Absent for the memory store, and for Redis without `maxmemory`.
   */
  freeBytes?: number;
  /** The store's whole room, when its backend can tell: the size of the SQLite file's disk, Redis's `maxmemory`. */
  totalBytes?: number;
}

/**
 * Reads the store once (a job nobody has), asks it whether it can be written (`STORE_BUSY` while another process has
 * held its write lock past the busy timeout: a read goes through such a lock) and how much more it can write; a
 * store failure throws its code.
 */
export async function checkReady(rt: Runtime): Promise<ReadyResponse> {
  await rt.ctx.store.jobs.get(NO_JOB);
  await rt.ctx.store.writable?.();
  const space = await rt.ctx.store.space?.();
  if (space?.freeBytes === undefined) return { success: true };
  return {
    success: true,
    freeBytes: space.freeBytes,
    ...(space.totalBytes === undefined ? {} : { totalBytes: space.totalBytes }),
  };
}
