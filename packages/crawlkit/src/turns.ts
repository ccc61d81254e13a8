/** Whom a scrape is for: the tenant of its call or job (undefined: the operator's), and its job, if any. */
export interface TurnOwner {
  tenant?: string | undefined;
  job?: string | undefined;
}

/** Scrapes running now, per tenant and per job of each tenant (none left at 0). */
export class Running {
  readonly #tenants = new Map<string | undefined, { count: number; jobs: Map<string | undefined, number> }>();

  /** Scrapes of `tenant` running (undefined: the operator's). */
  of(tenant: string | undefined): number {
    return this.#tenants.get(tenant)?.count ?? 0;
  }

  ofJob(tenant: string | undefined, job: string | undefined): number {
    return this.#tenants.get(tenant)?.jobs.get(job) ?? 0;
  }

  start({ tenant, job }: TurnOwner): void {
    let entry = this.#tenants.get(tenant);
    if (!entry) this.#tenants.set(tenant, (entry = { count: 0, jobs: new Map() }));
    entry.count++;
    entry.jobs.set(job, (entry.jobs.get(job) ?? 0) + 1);
  }

  end({ tenant, job }: TurnOwner): void {
    const entry = this.#tenants.get(tenant);
    if (!entry) return;
    const left = (entry.jobs.get(job) ?? 1) - 1;
    if (left > 0) entry.jobs.set(job, left);
    else entry.jobs.delete(job);
    if (--entry.count <= 0) this.#tenants.delete(tenant);
  }
}

interface Line<T> {
  items: Set<T>;
  /** The turn it was last served in (0: not since it last had nothing waiting). */
  served: number;
}

interface TenantLine<T> {
  jobs: Map<string | undefined, Line<T>>;
  served: number;
}

/**
 * A line of waiting scrapes served in turns: the next is the tenant's with the fewest scrapes running (the operator,
 * with no tenant, is one more tenant), of that tenant the job's with the fewest running (its calls, which have no
 * job, are one more job), the one served longest ago on a tie; each job's scrapes in the order they came. So one
 * tenant's giant batch, or its ten jobs, hold another tenant's small crawl back by a turn, not by all that they queued
 * first, and a tenant's jobs share its turns alike.
 */
export class Turns<T> {
  readonly #running: Running;
  readonly #tenants = new Map<string | undefined, TenantLine<T>>();
  readonly #owners = new Map<T, TurnOwner>();
  #turn = 0;

  /** `running`: the scrapes running now, which the turns go by (shared by the lines of one set of slots). */
  constructor(running: Running) {
    this.#running = running;
  }

  get size(): number {
    return this.#owners.size;
  }

  /** Items of `tenant` waiting (undefined: the operator's). */
  waitingOf(tenant: string | undefined): number {
    let count = 0;
    for (const line of this.#tenants.get(tenant)?.jobs.values() ?? []) count += line.items.size;
    return count;
  }

  add(item: T, owner: TurnOwner = {}): void {
    const { tenant, job } = owner;
    let jobs = this.#tenants.get(tenant);
    if (!jobs) this.#tenants.set(tenant, (jobs = { jobs: new Map(), served: 0 }));
    let line = jobs.jobs.get(job);
    if (!line) jobs.jobs.set(job, (line = { items: new Set(), served: 0 }));
    line.items.add(item);
    this.#owners.set(item, { tenant, job });
  }

  /** Removes a waiting item (one that gave up); false when it was not waiting. */
  delete(item: T): boolean {
    const owner = this.#owners.get(item);
    if (!owner) return false;
    this.#owners.delete(item);
    const tenant = this.#tenants.get(owner.tenant)!;
    const line = tenant.jobs.get(owner.job)!;
    line.items.delete(item);
    if (line.items.size === 0) tenant.jobs.delete(owner.job);
    if (tenant.jobs.size === 0) this.#tenants.delete(owner.tenant);
    return true;
  }

  /** Takes the next item in its turn; undefined when none waits. */
  take(): T | undefined {
    const turn = ++this.#turn;
    const tenant = fewest(this.#tenants, (t) => this.#running.of(t));
    if (!tenant) return undefined;
    const [name, jobs] = tenant;
    const [, line] = fewest(jobs.jobs, (job) => this.#running.ofJob(name, job))!;
    const [item] = line.items;
    jobs.served = turn;
    line.served = turn;
    this.delete(item!);
    return item;
  }
}

/** The entry with the fewest running, the one served longest ago on a tie (the first of those, in their order). */
function fewest<K, V extends { served: number }>(entries: Map<K, V>, running: (key: K) => number): [K, V] | undefined {
  let best: [K, V] | undefined;
  let bestRunning = Infinity;
  for (const entry of entries) {
    const count = running(entry[0]);
    if (count < bestRunning || (count === bestRunning && entry[1].served < best![1].served)) {
      best = entry;
      bestRunning = count;
    }
  }
  return best;
}
