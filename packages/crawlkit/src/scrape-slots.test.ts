import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';

import { ScrapeSlots } from './scrape-slots.js';

/** A task that runs until `finish` is called, recording when it started. */
function gate(log: string[], name: string) {
  let finish!: (value: string) => void;
  const done = new Promise<string>((resolve) => (finish = resolve));
  return {
    task: () => {
      log.push(name);
      return done;
    },
    finish: () => finish(name),
  };
}

describe('ScrapeSlots', () => {
  it('runs at most its concurrency at once, the others in the order they came', async () => {
    const slots = new ScrapeSlots(2);
    const log: string[] = [];
    const gates = ['a', 'b', 'c', 'd'].map((name) => gate(log, name));
    const results = gates.map((g) => slots.add(g.task));
    expect(log).toEqual(['a', 'b']);
    expect([slots.pending, slots.size]).toEqual([2, 2]);
    gates[1]!.finish();
    await results[1];
    expect(log).toEqual(['a', 'b', 'c']);
    gates[0]!.finish();
    gates[2]!.finish();
    gates[3]!.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect([slots.pending, slots.size]).toEqual([0, 0]);
  });

  it("starts a caller's scrape before the background (job) pages that came first, each line in its order", async () => {
    const slots = new ScrapeSlots(1);
    const log: string[] = [];
    const [running, job1, job2, call1, call2] = ['running', 'job1', 'job2', 'call1', 'call2'].map((n) => gate(log, n));
    const results = [
      slots.add(running!.task, { background: true }),
      slots.add(job1!.task, { background: true }),
      slots.add(job2!.task, { background: true }),
      slots.add(call1!.task),
      slots.add(call2!.task),
    ];
    expect([slots.pending, slots.size]).toEqual([1, 4]);
    // A waiting job page that aborts leaves its line.
    const aborted = new AbortController();
    const leaving = slots.add(() => Promise.resolve('never'), { background: true, signal: aborted.signal });
    aborted.abort(new Error('gone'));
    await expect(leaving).rejects.toThrow('gone');
    for (const g of [running, call1, call2, job1, job2]) {
      g!.finish();
      await Promise.resolve();
    }
    expect(await Promise.all(results)).toEqual(['running', 'job1', 'job2', 'call1', 'call2']);
    expect(log).toEqual(['running', 'call1', 'call2', 'job1', 'job2']);
    await slots.onIdle();
  });

  it("serves each line in turns: tenant by tenant, then each tenant's jobs in turn, each job in its order", async () => {
    const slots = new ScrapeSlots(1);
    const log: string[] = [];
    const names = ['running', 'a1-1', 'a1-2', 'a2-1', 'a2-2', 'a3-1', 'b1-1', 'b1-2', 'op-1'];
    const gates = new Map(names.map((name) => [name, gate(log, name)]));
    const owner = (name: string) => {
      if (name.startsWith('op')) return {};
      return { tenant: `team-${name[0]}`, job: `job-${name.slice(0, 2)}` };
    };
    // Team a queued its three jobs' pages first, then team b its crawl's, then the operator a page.
    const results = names.map((name) => slots.add(gates.get(name)!.task, { background: true, ...owner(name) }));
    // A caller of team b waits behind the page running, never behind a job's.
    const call = gate(log, 'b-call');
    const called = slots.add(call.task, { tenant: 'team-b' });
    for (const name of ['running', 'b-call', ...names.slice(1)]) {
      (name === 'b-call' ? call : gates.get(name)!).finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([...results, called]);
    // Before: in the order they came (a1-1 a1-2 a2-1 a2-2 a3-1 b1-1 b1-2 op-1).
    expect(log).toEqual(['running', 'b-call', 'a1-1', 'b1-1', 'op-1', 'a2-1', 'b1-2', 'a3-1', 'a1-2', 'a2-2']);
  });

  it('gives a freed slot to the tenant with the fewest scrapes running, though its page came last', async () => {
    const slots = new ScrapeSlots(2);
    const log: string[] = [];
    const [a1, b1, a2, a3, b2] = ['a1', 'b1', 'a2', 'a3', 'b2'].map((name) => gate(log, name));
    const results = [
      slots.add(a1!.task, { background: true, tenant: 'a', job: 'x' }),
      slots.add(b1!.task, { background: true, tenant: 'b', job: 'y' }),
      slots.add(a2!.task, { background: true, tenant: 'a', job: 'x' }),
      slots.add(a3!.task, { background: true, tenant: 'a', job: 'x' }),
    ];
    b1!.finish();
    await results[1];
    // a1 still runs: a2 takes b1's slot, as nobody of b waits.
    expect(log).toEqual(['a1', 'b1', 'a2']);
    results.push(slots.add(b2!.task, { background: true, tenant: 'b', job: 'y' }));
    a2!.finish();
    await results[2];
    // a3 came first, but a has a1 running and b nothing.
    expect(log).toEqual(['a1', 'b1', 'a2', 'b2']);
    for (const g of [a1, a3, b2]) g!.finish();
    await Promise.all(results);
    expect(slots.of('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps the turns of those still waiting when a waiting scrape of another tenant aborts', async () => {
    const slots = new ScrapeSlots(1);
    const log: string[] = [];
    const [running, a1, b1, a2] = ['running', 'a1', 'b1', 'a2'].map((name) => gate(log, name));
    const first = slots.add(running!.task, { background: true, tenant: 'a', job: 'x' });
    const controller = new AbortController();
    const leaving = slots.add(() => Promise.resolve('never'), {
      background: true,
      tenant: 'c',
      signal: controller.signal,
    });
    const rest = [
      slots.add(a1!.task, { background: true, tenant: 'a', job: 'x' }),
      slots.add(a2!.task, { background: true, tenant: 'a', job: 'x' }),
      slots.add(b1!.task, { background: true, tenant: 'b', job: 'y' }),
    ];
    controller.abort(new Error('gone'));
    await expect(leaving).rejects.toThrow('gone');
    expect(slots.size).toBe(3);
    for (const g of [running, a1, b1, a2]) {
      g!.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([first, ...rest]);
    expect(log).toEqual(['running', 'a1', 'b1', 'a2']);
  });

  it('frees the slot of a task that throws, and rejects with its error', async () => {
    const slots = new ScrapeSlots(1);
    const failing = slots.add(() => {
      throw new Error('boom');
    });
    const next = slots.add(() => Promise.resolve('next'));
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('drops a waiting task whose signal aborts, and never starts it', async () => {
    const slots = new ScrapeSlots(1);
    const log: string[] = [];
    const first = gate(log, 'first');
    const running = slots.add(first.task);
    const controller = new AbortController();
    const waiting = slots.add(gate(log, 'second').task, { signal: controller.signal });
    const third = gate(log, 'third');
    const after = slots.add(third.task);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(slots.size).toBe(1);
    first.finish();
    await running;
    third.finish();
    await after;
    expect(log).toEqual(['first', 'third']);
  });

  it('rejects a task whose signal aborted before it was added, without running it', async () => {
    const slots = new ScrapeSlots(1);
    let ran = false;
    await expect(
      slots.add(
        () => {
          ran = true;
          return Promise.resolve();
        },
        { signal: AbortSignal.abort(new Error('already')) },
      ),
    ).rejects.toThrow('already');
    expect(ran).toBe(false);
    expect(slots.pending).toBe(0);
  });

  it('rejects a running task at once when its signal aborts, and gives its slot to the next', async () => {
    const slots = new ScrapeSlots(1);
    const log: string[] = [];
    const controller = new AbortController();
    const hanging = slots.add(gate(log, 'hanging').task, { signal: controller.signal });
    const next = gate(log, 'next');
    const after = slots.add(next.task);
    controller.abort(new Error('cancelled'));
    await expect(hanging).rejects.toThrow('cancelled');
    await Promise.resolve();
    expect(log).toEqual(['hanging', 'next']);
    next.finish();
    await expect(after).resolves.toBe('next');
  });

  it('runs a task that waited in the async context of its add', async () => {
    const slots = new ScrapeSlots(1);
    const storage = new AsyncLocalStorage<string>();
    const first = gate([], 'first');
    const running = storage.run('first caller', () => slots.add(first.task));
    const seen = storage.run('second caller', () => slots.add(() => Promise.resolve(storage.getStore())));
    first.finish();
    await running;
    await expect(seen).resolves.toBe('second caller');
  });

  it('says when nothing runs or waits', async () => {
    const slots = new ScrapeSlots(1);
    await slots.onIdle();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    void slots.add(a.task);
    void slots.add(b.task);
    let idle = false;
    const waiting = slots.onIdle().then(() => (idle = true));
    a.finish();
    await Promise.resolve();
    expect(idle).toBe(false);
    b.finish();
    await waiting;
    expect([slots.pending, slots.size]).toEqual([0, 0]);
  });

  it('refuses a concurrency below 1', () => {
    expect(() => new ScrapeSlots(0)).toThrow(TypeError);
  });
});
