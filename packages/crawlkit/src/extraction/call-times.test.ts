import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { addCallTimes, callTimes, measureRun } from './call-times.js';

describe('call times', () => {
  it('splits a call into its wait, its run and its reply', () => {
    const times = callTimes(1_000, { startedAt: 1_002.5, endedAt: 1_010.5, cpuMs: 6 }, 1_011);
    expect(times).toEqual({ waitMs: 2.5, runMs: 8, cpuMs: 6, replyMs: 0.5 });
  });

  it("reads two threads' clocks a few microseconds apart as no time, not negative time", () => {
    const times = callTimes(1_000.01, { startedAt: 1_000, endedAt: 1_004, cpuMs: 4 }, 1_003.99);
    expect(times.waitMs).toBe(0);
    expect(times.replyMs).toBe(0);
  });

  it('adds up the calls of one stage', () => {
    const a = { waitMs: 1, runMs: 2, cpuMs: 1.5, replyMs: 0.5 };
    expect(addCallTimes(a, a)).toEqual({ waitMs: 2, runMs: 4, cpuMs: 3, replyMs: 1 });
  });

  it("counts the thread's CPU during a run, not the time it waited", async () => {
    const waited = await measureRun(() => sleep(30).then(() => 'slept'));
    expect(waited.value).toBe('slept');
    expect(waited.run.endedAt - waited.run.startedAt).toBeGreaterThanOrEqual(29);
    expect(waited.run.cpuMs).toBeLessThan(waited.run.endedAt - waited.run.startedAt);

    const busy = await measureRun(() => {
      let x = 0;
      for (let i = 0; i < 5_000_000; i++) x += i % 7;
      return x;
    });
    expect(busy.run.cpuMs).toBeGreaterThan(0);
    // One thread's CPU cannot pass its wall time, but it is accounted at context switches and scheduler ticks (4 ms
    // at 250 Hz), so a tick's worth may fall on either side of the run's edges.
    expect(busy.run.cpuMs).toBeLessThanOrEqual(busy.run.endedAt - busy.run.startedAt + 5);
  });

  it("measures a run without its CPU on a Node that cannot tell a thread's CPU (before 22.19)", async () => {
    const threadCpuUsage = Object.getOwnPropertyDescriptor(process, 'threadCpuUsage');
    Reflect.deleteProperty(process, 'threadCpuUsage');
    try {
      const measured = await measureRun(() => 'ran');
      expect(measured.value).toBe('ran');
      expect(measured.run.cpuMs).toBeUndefined();
      const times = callTimes(measured.run.startedAt, measured.run, measured.run.endedAt);
      expect(times).not.toHaveProperty('cpuMs');
      expect(addCallTimes(times, { ...times, cpuMs: 2 })).not.toHaveProperty('cpuMs');
    } finally {
      if (threadCpuUsage) Object.defineProperty(process, 'threadCpuUsage', threadCpuUsage);
    }
  });
});
