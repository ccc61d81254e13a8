import { WarnThrottle } from '../warn-throttle.js';

/** Shortest time between two warnings about one job's given-up events. */
const NOTE_EVERY_MS = 60_000;

/**
 * Tells, as an engine warning, that a job's webhook event was given up: a receiver that only takes webhooks reads no
 * job errors, and the operator watching the process's output otherwise never learns of it. At most one line per job
 * a minute (a receiver answering 401 gives every event up at once), counting the ones given up meanwhile.
 */
export class GiveUpNotes {
  readonly #told = new WarnThrottle(NOTE_EVERY_MS);
  readonly #warn: (message: string) => void;

  constructor(warn: (message: string) => void) {
    this.#warn = warn;
  }

  /** `message`: what was given up and why (the job error's message). */
  tell(jobId: string, message: string, now = Date.now()): void {
    const told = this.#told.tell(jobId, now);
    if (!told) return;
    const { last } = told;
    const more = last?.unsaid ? `; ${last.unsaid} more of its events were given up since the last warning` : '';
    this.#warn(`Job ${jobId}: ${message}${more} (each is in the job's errors, code WEBHOOK_DELIVERY_FAILED)`);
  }
}
