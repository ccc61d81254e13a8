/** Per job and host, how many pages needed the browser and how many did not (adaptive engine choice). */

/**
 * What a job saw of one host's pages: how many held their content in the HTML and how many needed the browser
 * (the adaptive engine choice of a crawl or batch).
 */
export interface HostEngineStats {
  /** Pages of the host whose HTML held their content. */
  http: number;
  /** Pages of the host that needed the browser. */
  browser: number;
}

/** Bounds of `EngineStore.record`. */
export interface EngineStoreLimits {
  /**
   * When the two counts together would go over this, both are halved (rounded down) first: old pages fade and the
   * counts stay small.
   * @default 20
   */
  maxCount?: number;
  /**
   * Hosts a job keeps counts for; a page of a further host is not recorded.
   * @default 10000
   */
  maxHosts?: number;
}

export interface EngineStore {
  /** What the job learned about `host` (as the caller names it, e.g. `example.com:8080`), or `undefined`. */
  get(jobId: string, host: string): Promise<HostEngineStats | undefined>;
  /**
   * Counts one page of `host` that held its content in the HTML (`http`) or needed the browser (`browser`), atomic
   * across processes, and returns the new counts; `undefined` when the job already keeps `maxHosts` other hosts.
   * The counts are the job's: deleted with it. Rejects with `JobNotFoundError` for an unknown job.
   */
  record(
    jobId: string,
    host: string,
    page: 'http' | 'browser',
    limits?: EngineStoreLimits,
  ): Promise<HostEngineStats | undefined>;
}
