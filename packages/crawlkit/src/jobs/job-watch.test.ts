import { setImmediate as nextTurn } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { JobSignals } from './job-watch.js';

/** Whether `promise` has settled after a turn of the event loop. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await nextTurn();
  return done;
}

describe('JobSignals', () => {
  it("wakes an end waiter at the job's end only, and a change waiter at each change and at the end", async () => {
    const signals = new JobSignals();
    const end = signals.next('job', undefined, 'end');
    const change = signals.next('job');
    signals.signal('job');
    expect(await settled(change)).toBe(true);
    expect(await settled(end)).toBe(false);
    signals.signal('other');
    expect(await settled(end)).toBe(false);
    const nextChange = signals.next('job');
    signals.ended('job');
    expect(await settled(end)).toBe(true);
    expect(await settled(nextChange)).toBe(true);
  });

  it('wakes every waiter when the engine closes, and one whose signal aborts', async () => {
    const signals = new JobSignals();
    const aborted = new AbortController();
    const waiting = signals.next('a', aborted.signal, 'end');
    aborted.abort();
    expect(await settled(waiting)).toBe(true);
    const both = [signals.next('a', undefined, 'end'), signals.next('b')];
    signals.signalAll();
    expect(await settled(Promise.all(both).then(() => undefined))).toBe(true);
  });
});
