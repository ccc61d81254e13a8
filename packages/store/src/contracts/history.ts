/** Change tracking: the snapshots of each page scraped with the `changeTracking` format. */

/** One scrape of a page, kept for change tracking. */
export interface HistoryEntry {
  /** Normalised URL. */
  url: string;
  /** Isolates histories; `''` for the default history. */
  tag: string;
  scrapedAt: number;
  /** Serialised snapshot (markdown, status code, ...). */
  value: string;
}

export interface HistoryStore {
  /** The most recent entry for (url, tag): highest `scrapedAt`, the last appended on a tie. */
  latest(url: string, tag: string): Promise<HistoryEntry | undefined>;
  /**
   * Appends a snapshot. A store keeps a bounded number of entries per (url, tag) (its `maxHistoryPerUrl` option, 1
   * by default: `latest` is all crawlkit reads) and drops the oldest beyond it.
   */
  append(entry: HistoryEntry): Promise<void>;
  /**
   * Deletes every entry of (url, tag). Optional: a store without it keeps what it was given (crawlkit's records that
   * expire, a monitor's old checks, then stay in it); the memory, SQLite and Redis stores have it.
   */
  delete?(url: string, tag: string): Promise<void>;
  /**
   * Deletes every entry of a tag, whatever its URL (a monitor deleted takes its pages' snapshots with it). Optional as
   * `delete` is; the memory, SQLite and Redis stores have it. Not for the default history (`''`).
   */
  deleteTag?(tag: string): Promise<void>;
  /**
   * Deletes every entry of each (url, tag) whose latest entry was scraped before `before` (epoch ms): the pages not
   * seen since. Tags starting with one of `except` are kept, whatever their age (crawlkit's own records). Resolves
   * to how many (url, tag) were deleted. Optional as `delete` is; the memory, SQLite and Redis stores have it.
   */
  prune?(options: HistoryPrune): Promise<number>;
}

/** What `HistoryStore.prune` deletes. */
export interface HistoryPrune {
  /** Epoch ms: a (url, tag) whose latest entry is older goes. */
  before: number;
  /** Tag prefixes kept whatever their age. */
  except?: readonly string[];
}
