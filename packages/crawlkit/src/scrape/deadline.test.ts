import { once } from 'node:events';

import { describe, expect, it } from 'vitest';

import { Deadline } from './deadline.js';

/** Resumes a suspended 40 ms deadline and waits for it to expire: not before its whole timeout from then. */
async function expiresWholeTimeoutAfterResume(deadline: Deadline): Promise<void> {
  const resumed = performance.now();
  deadline.resume();
  await once(deadline.signal, 'abort');
  expect(performance.now() - resumed).toBeGreaterThanOrEqual(39);
  expect(deadline.timedOut).toBe(true);
  deadline.clear();
}

describe('Deadline', () => {
  it("is spent a few milliseconds before its timer: an engine's own timer, given the rounded time left, may fire first", () => {
    const deadline = new Deadline(50);
    const start = performance.now();
    while (performance.now() - start < 46);
    // The engine's "Scrape timed out after 50 ms." is then the page's timeout, told with its stage.
    expect(deadline.spent).toBe(true);
    deadline.clear();
  });

  it('counts the time a retried page has left, and names its whole timeout', async () => {
    const deadline = new Deadline(1_000, undefined, 960);
    expect(deadline.budgetMs).toBe(40);
    await once(deadline.signal, 'abort');
    expect(deadline.usedMs).toBe(40);
    expect(deadline.timeoutMessage()).toBe('Scrape timed out after 1000 ms while fetching the page.');
    deadline.clear();
  });

  it('says the browser rendered or ran actions when its time passed', () => {
    const deadline = new Deadline(60_000);
    const slot = deadline.browserSlot();
    slot.waiting();
    slot.acquired();
    expect(deadline.timeoutMessage()).toBe('Scrape timed out after 60000 ms while rendering the page in the browser.');
    deadline.actions();
    expect(deadline.timeoutMessage()).toMatch(/while running the page's actions in the browser\.$/);
    deadline.clear();
  });

  it("aborts with the caller's reason when the caller aborts, which is no timeout", () => {
    const caller = new AbortController();
    const deadline = new Deadline(60_000, caller.signal);
    const reason = new Error('job cancelled');
    caller.abort(reason);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(reason);
    expect(deadline.timedOut).toBe(false);
    deadline.clear();
  });

  it('aborts at once for a caller already aborted', () => {
    const deadline = new Deadline(60_000, AbortSignal.abort('gone'));
    expect(deadline.signal.reason).toBe('gone');
    expect(deadline.timedOut).toBe(false);
    deadline.clear();
  });

  it('aborts with a TimeoutError when its time passes, and says so', async () => {
    const caller = new AbortController();
    const deadline = new Deadline(5, caller.signal);
    await once(deadline.signal, 'abort');
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(deadline.timedOut).toBe(true);
    deadline.clear();
  });

  it("expires no page while it waits for its host's slot, and counts a whole timeout from the wait's end", async () => {
    const deadline = new Deadline(40);
    deadline.suspend();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(deadline.signal.aborted).toBe(false);
    await expiresWholeTimeoutAfterResume(deadline);
  });

  it("counts a whole timeout from a host's slot taken at once, not from the scrape's start", async () => {
    const deadline = new Deadline(40);
    await new Promise((resolve) => setTimeout(resolve, 20));
    deadline.suspend();
    await expiresWholeTimeoutAfterResume(deadline);
  });

  it("expires no page while its model task waits for a slot, and does once the model's call outlives the rest", async () => {
    const deadline = new Deadline(40);
    const task = deadline.modelTask();
    task.queued();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(deadline.signal.aborted).toBe(false);
    task.running();
    await once(deadline.signal, 'abort');
    expect(deadline.timedOut).toBe(true);
    deadline.clear();
  });

  it('expires no page while its fetch waits for a browser page, and goes on with the time left after', async () => {
    const deadline = new Deadline(40);
    const slot = deadline.browserSlot();
    slot.waiting();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(deadline.signal.aborted).toBe(false);
    const got = performance.now();
    slot.acquired();
    await once(deadline.signal, 'abort');
    // The time before the wait (none here) counted; the wait did not.
    expect(performance.now() - got).toBeGreaterThanOrEqual(39);
    expect(deadline.timedOut).toBe(true);
    deadline.clear();
  });

  it('ends at once, no timeout, when the caller aborts while a model task waits for a slot', () => {
    const caller = new AbortController();
    const deadline = new Deadline(60_000, caller.signal);
    deadline.modelTask().queued();
    caller.abort(new Error('job cancelled'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut).toBe(false);
    deadline.clear();
  });

  it('keeps the clock going while one model task of the page answers and another waits for a slot', async () => {
    const deadline = new Deadline(40);
    const answering = deadline.modelTask();
    const waiting = deadline.modelTask();
    answering.queued();
    answering.running();
    waiting.queued();
    await once(deadline.signal, 'abort');
    expect(deadline.timedOut).toBe(true);
    deadline.clear();
  });

  it('leaves the caller once cleared: a later abort of the caller does not reach it', () => {
    const caller = new AbortController();
    const deadline = new Deadline(60_000, caller.signal);
    deadline.clear();
    caller.abort();
    expect(deadline.signal.aborted).toBe(false);
  });
});
