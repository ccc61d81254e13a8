import type { JobKind, JobRecord, Store } from '@crawlkit/store';

import { jobProgress } from './status.js';

/** A job's counts as the `progress` event tells them. */
export interface ProgressCounts {
  total: number;
  completed: number;
  creditsUsed: number;
}

interface JobReport {
  /** A page settled while the counts were being read: read them again. */
  dirty: boolean;
  /** The counts told last, as `completed/total/credits`. */
  last: string | undefined;
  reading: boolean;
}

/**
 * The `progress` events of the jobs run here: the counts are read after a page settles, one read of a job at a time
 * (a page settling meanwhile asks for one more), and told only when they moved. Pages settle in parallel: a read
 * per page, unordered, told the same counts several times (40 events, 19 different, for a batch of 40 at 8 at once)
 * and could tell older counts after newer ones, a progress bar going back.
 */
export class ProgressReports {
  readonly #jobs = new Map<string, JobReport>();
  readonly #tell: (id: string, kind: JobKind, counts: ProgressCounts) => void;

  constructor(tell: (id: string, kind: JobKind, counts: ProgressCounts) => void) {
    this.#tell = tell;
  }

  /** A page of `job` (living in `store`) settled: its counts are read and told if they moved. */
  async settled(store: Store, job: JobRecord): Promise<void> {
    let report = this.#jobs.get(job.id);
    if (!report) this.#jobs.set(job.id, (report = { dirty: false, last: undefined, reading: false }));
    if (report.reading) {
      report.dirty = true;
      return;
    }
    report.reading = true;
    try {
      do {
        report.dirty = false;
        const counts = await readCounts(store, job);
        const key = `${counts.completed}/${counts.total}/${counts.creditsUsed}`;
        if (key === report.last) continue;
        report.last = key;
        this.#tell(job.id, job.kind, counts);
      } while (report.dirty);
    } finally {
      report.reading = false;
    }
  }

  /** The job ended here: its counts are told no more. */
  ended(id: string): void {
    this.#jobs.delete(id);
  }
}

async function readCounts(store: Store, job: JobRecord): Promise<ProgressCounts> {
  const [counts, documents, current] = await Promise.all([
    store.tasks.counts(job.id),
    store.results.count(job.id),
    store.jobs.get(job.id),
  ]);
  return {
    ...jobProgress(counts, documents, current?.status ?? job.status),
    creditsUsed: current?.creditsUsed ?? 0,
  };
}
