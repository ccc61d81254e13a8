/** Shortest time between two warnings about one job's given-up events. */
const NOTE_EVERY_MS = 60_000;
/** Jobs remembered at most; the oldest are forgotten past it (a forgotten job is told again at its next give-up). */
const MAX_JOBS = 1_000;

/**
 * Tells, as an engine warning, that a job's webhook event was given up: a receiver that only takes webhooks reads no
 * job errors, and the operator watching the process's output otherwise never learns of it. At most one line per job
 * a minute (a receiver answering 401 gives every event up at once), counting the ones given up meanwhile.
 */
export class GiveUpNotes {
  readonly #jobs = new Map<string, { toldAt: number; untold: number }>();
  readonly #warn: (message: string) => void;

  constructor(warn: (message: string) => void) {
    this.#warn = warn;
  }

  /** `message`: what was given up and why (the job error's message). */
  tell(jobId: string, message: string, now = Date.now()): void {
    const job = this.#jobs.get(jobId);
    if (job && now - job.toldAt < NOTE_EVERY_MS) {
      job.untold++;
      return;
    }
    const more = job?.untold ? `; ${job.untold} more of its events were given up since the last warning` : '';
    this.#jobs.delete(jobId);
    this.#jobs.set(jobId, { toldAt: now, untold: 0 });
    if (this.#jobs.size > MAX_JOBS) this.#jobs.delete(this.#jobs.keys().next().value!);
    this.#warn(`Job ${jobId}: ${message}${more} (each is in the job's errors, code WEBHOOK_DELIVERY_FAILED)`);
  }
}
