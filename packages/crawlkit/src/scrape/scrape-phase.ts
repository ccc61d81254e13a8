/**
 * Where a scrape is, for the message of its timeout: fetching, waiting for an extraction worker, extracting, or
 * computing the formats after. A page that waited its whole timeout in the extraction queue (every worker busy with
 * other pages) is told so, not told that it is too large.
 */
export class ScrapePhase {
  #phase: 'fetch' | 'extract' | 'formats' = 'fetch';
  /** When the fetch started (after the wait for the host's slot). */
  #started = Date.now();
  /** When the page was handed to the extraction pool. */
  #queued = 0;
  /** When a worker started its extraction; 0 while it waits for one. */
  #running = 0;

  /** The fetch starts (again) now: the time before it, a wait for the host, is no part of the scrape's timeout. */
  restart(): void {
    this.#started = Date.now();
  }

  fetching(): void {
    this.#phase = 'fetch';
  }

  /** The page goes to the extraction pool. */
  extracting(): void {
    this.#phase = 'extract';
    this.#queued = Date.now();
    this.#running = 0;
  }

  /** A worker started the page's extraction task. */
  readonly running = (): void => {
    this.#running = Date.now();
  };

  formats(): void {
    this.#phase = 'formats';
  }

  timeoutMessage(timeoutMs: number): string {
    const head = `Scrape timed out after ${timeoutMs} ms`;
    if (this.#phase === 'fetch') return `${head} while fetching the page.`;
    if (this.#phase === 'formats') return `${head} while computing the formats after extraction.`;
    const now = Date.now();
    const fetch = `the fetch took ${this.#queued - this.#started} ms`;
    if (!this.#running) {
      return (
        `${head}: the page waited ${now - this.#queued} ms for an extraction worker (${fetch}); every worker ` +
        'thread was busy with other pages or still starting. Raise `timeout`, or scrape fewer pages at once ' +
        "(`concurrency` in `new Crawlkit()`, or a job's `maxConcurrency`)."
      );
    }
    return (
      `${head}: extraction of the page was cut after ${now - this.#running} ms (${fetch}, then ` +
      `${this.#running - this.#queued} ms waiting for a worker) and its worker thread stopped. Raise \`timeout\` for ` +
      'pages this large.'
    );
  }
}
