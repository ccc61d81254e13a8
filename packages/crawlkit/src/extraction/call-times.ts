/**
 * Where the wall time of an extraction call goes: waiting for a worker, the worker's run (and how much of it was the
 * worker thread's own CPU), and the way back. A scrape's `extract` stage is all of them; only `cpuMs` is the steps'
 * work, the rest is the time around it (a turn of the event loop, a busy worker, the thread's garbage collection or
 * a core taken by another process, the reply's copy and the main thread's wake-up).
 */
import { threadCpuMs } from '../thread-cpu.js';

export interface CallTimes {
  /** From the call to its start on a worker: the pool's turn, the queue, the message to the worker. */
  waitMs: number;
  /** The worker's run of the call, start to end. */
  runMs: number;
  /**
   * CPU time of the worker thread during the run (its own, not V8's helper threads'); absent on a Node without
   * `process.threadCpuUsage` (before 22.19 and 23.9).
   */
  cpuMs?: number;
  /** From the run's end to the reply on the calling thread. */
  replyMs: number;
}

/** What the thread that ran a call measured, in milliseconds since the epoch (comparable across threads). */
export interface CallRun {
  startedAt: number;
  endedAt: number;
  cpuMs?: number;
}

/** Now, in milliseconds since the epoch, comparable across threads (each thread has its own `timeOrigin`). */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/** Runs `fn` and measures it on this thread: its start, its end and the thread's CPU meanwhile. */
export async function measureRun<T>(fn: () => T | Promise<T>): Promise<{ value: T; run: CallRun }> {
  const startedAt = epochNow();
  const cpu = threadCpuMs();
  const value = await fn();
  const endedAt = epochNow();
  const end = cpu === undefined ? undefined : threadCpuMs();
  return { value, run: end === undefined ? { startedAt, endedAt } : { startedAt, endedAt, cpuMs: end - cpu! } };
}

/** A call's times from when it was made (`calledAt`), its run, and when its reply arrived (`repliedAt`). */
export function callTimes(calledAt: number, run: CallRun, repliedAt: number): CallTimes {
  // The clocks of two threads agree to a few microseconds: a negative difference is rounding, not time.
  return {
    waitMs: Math.max(0, run.startedAt - calledAt),
    runMs: Math.max(0, run.endedAt - run.startedAt),
    ...(run.cpuMs === undefined ? {} : { cpuMs: run.cpuMs }),
    replyMs: Math.max(0, repliedAt - run.endedAt),
  };
}

/** The times of two calls of one stage added up (a judge's verdict, then the extraction it left). */
export function addCallTimes(a: CallTimes, b: CallTimes): CallTimes {
  return {
    waitMs: a.waitMs + b.waitMs,
    runMs: a.runMs + b.runMs,
    ...(a.cpuMs === undefined || b.cpuMs === undefined ? {} : { cpuMs: a.cpuMs + b.cpuMs }),
    replyMs: a.replyMs + b.replyMs,
  };
}
