import { clearInterval, setInterval } from 'node:timers';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

import type { Store } from '@crawlkit/store';

import { sleep } from '@crawlkit/actions/sleep';
import { isProcessGone } from '@crawlkit/options/process-gone';

/**
 * A lease owner id that says where it runs: `<host>/<pid>/<uuid>`. The uuid keeps two engines of one process apart;
 * host and pid let another process of the same host tell that the owner has died.
 */
export function leaseOwnerId(): string {
  return `${hostname()}/${process.pid}/${randomUUID()}`;
}

/**
 * Whether `owner` (a `leaseOwnerId()`) is a process of this host that no longer exists. False whenever that is not
 * certain (another host, this process, a foreign id, a pid that exists or cannot be probed): such a lease is left to
 * expire instead.
 */
export function isDeadLocalOwner(owner: string): boolean {
  const [host, pidText, id] = owner.split('/');
  if (!id || host !== hostname()) return false;
  return isProcessGone(Number(pidText));
}

/**
 * How long a job lease lasts without renewal (it is renewed every third of it). Only tests change it, to check that
 * renewals keep time while pages are extracted.
 */
export const leaseTiming = { ttlMs: 30_000 };
/** How often a process waiting for another's lease looks again (it takes over once the holder dies or lets go). */
const LEASE_POLL_MS = 1_000;

/** A lease this engine holds: renewed while anyone here (the job's driver, the webhook dispatcher) still needs it. */
interface Held {
  holders: number;
  renew: NodeJS.Timeout;
  lost: Set<() => void>;
}

/**
 * The job leases of one engine: a job is driven by the process holding its lease (renewed every third of its 30 s
 * TTL), so two processes sharing a store never run the same job, and only the holder sends its webhook events. Within
 * the engine a lease is shared: the job's driver and the webhook dispatcher each hold it, and it is let go when
 * neither needs it any more (a job that ended with events still to send keeps it until they are sent, so that no
 * other process sends them too).
 */
export class JobLeases {
  readonly owner = leaseOwnerId();
  readonly #held = new Map<string, Held>();

  /**
   * Takes the job's lease, waiting while another live process holds it. A lease left by a crashed process of this
   * host is taken over at once; any other is taken when it expires or is released. Gives up (false) when the job
   * finishes elsewhere, is cancelled or deleted, or `closing` aborts.
   */
  async acquire(id: string, store: Store, closing: AbortSignal): Promise<boolean> {
    for (;;) {
      if (closing.aborted) return false;
      if (await this.#take(id, store)) return true;
      const current = await store.jobs.get(id);
      if (!current || current.status !== 'scraping') return false;
      await sleep(LEASE_POLL_MS, closing);
    }
  }

  /**
   * Takes the job's lease without waiting when no other live process holds it, and holds it (as `hold`) until the
   * returned function lets it go; undefined when another process holds it. Shared with whoever holds it here.
   */
  async claim(id: string, store: Store, lost: () => void): Promise<(() => Promise<void>) | undefined> {
    if (!this.#held.has(id) && !(await this.#take(id, store))) return undefined;
    return this.hold(id, store, lost);
  }

  /**
   * Renews a lease taken with `acquire` or `claim` until the returned function lets it go (the lease itself is let go
   * once nobody here holds it); `lost` is called when another process took the job over (this one looked dead or
   * stalled), which then drives it alone.
   */
  hold(id: string, store: Store, lost: () => void): () => Promise<void> {
    let entry = this.#held.get(id);
    if (!entry) {
      const created = { holders: 0, lost: new Set<() => void>() } as Omit<Held, 'renew'> as Held;
      created.renew = setInterval(() => this.#renew(id, store, created), leaseTiming.ttlMs / 3);
      created.renew.unref();
      this.#held.set(id, created);
      entry = created;
    }
    entry.holders++;
    entry.lost.add(lost);
    const held = entry;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      held.lost.delete(lost);
      if (--held.holders > 0) return;
      clearInterval(held.renew);
      if (this.#held.get(id) === held) this.#held.delete(id);
      await store.jobs.releaseLease(id, this.owner).catch(() => undefined);
    };
  }

  /**
   * Whether another live engine holds the job's lease: that engine drives the job and sends its webhook events, and
   * this one leaves them alone so that they are neither sent twice nor out of order.
   */
  async drivenElsewhere(store: Store, id: string): Promise<boolean> {
    const holder = await store.jobs.leaseHolder?.(id);
    if (!holder || holder.owner === this.owner || holder.until <= Date.now()) return false;
    return !isDeadLocalOwner(holder.owner);
  }

  /**
   * Takes the lease if it is free, expired or this engine's; frees first one left by a crashed process of this host.
   */
  async #take(id: string, store: Store): Promise<boolean> {
    if (await store.jobs.acquireLease(id, this.owner, leaseTiming.ttlMs)) return true;
    const holder = await store.jobs.leaseHolder?.(id);
    // releaseLease is a compare-and-swap on the owner: if the dead owner's lease was already taken, it is a no-op.
    if (!holder || !isDeadLocalOwner(holder.owner)) return false;
    await store.jobs.releaseLease(id, holder.owner);
    return store.jobs.acquireLease(id, this.owner, leaseTiming.ttlMs);
  }

  #renew(id: string, store: Store, entry: Held): void {
    store.jobs
      .acquireLease(id, this.owner, leaseTiming.ttlMs)
      .then((held) => {
        if (held || this.#held.get(id) !== entry) return;
        this.#held.delete(id);
        clearInterval(entry.renew);
        for (const lost of entry.lost) lost();
      })
      .catch(() => undefined);
  }
}
