// CPU time and minor page faults of this process by kind of thread, from /proc/self/task (Linux): its main thread, its
// worker threads (`worker_threads`: the extraction pool's), V8's helper threads (garbage collection, compilation) and
// the rest (libuv's pool, …). The question it answers: where a scrape's CPU goes when the pool is on (issue 37), and
// how much of it is first touches of fresh memory (faults37: on a VM where one costs ~20 µs, half the main thread's).
import { readdirSync, readFileSync } from 'node:fs';

/** A figure by kind of thread. */
export interface ThreadCpu {
  main: number;
  workers: number;
  v8: number;
  other: number;
}

/** Fields of `/proc/<pid>/task/<tid>/stat` after the command's name, from 0: minflt, utime, stime. */
const MINFLT = 7;
const UTIME = 11;
const STIME = 12;

/** `read(fields)` of each thread's stat summed by thread kind, or `undefined` where /proc has no tasks. */
function byThread(read: (fields: string[]) => number): ThreadCpu | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const out: ThreadCpu = { main: 0, workers: 0, v8: 0, other: 0 };
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const value = read(stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    if (task === String(process.pid)) out.main += value;
    else if (name === 'WorkerThread') out.workers += value;
    else if (name.startsWith('V8')) out.v8 += value;
    else out.other += value;
  }
  return out;
}

/** Milliseconds of CPU (user + system) by thread kind so far, or `undefined` where /proc has no tasks. */
export function threadCpuMs(): ThreadCpu | undefined {
  const tick = 1000 / 100; // USER_HZ: 100 on Linux
  return byThread((fields) => (Number(fields[UTIME]) + Number(fields[STIME])) * tick);
}

/**
 * Minor page faults by thread kind so far (each the first touch of a page of memory the process was given, or given
 * back), or `undefined` where /proc has no tasks.
 */
export function threadFaults(): ThreadCpu | undefined {
  return byThread((fields) => Number(fields[MINFLT]));
}

/** `after - before`, by kind (a thread that ended in between takes its CPU with it: a pool's replaced worker). */
export function threadCpuSince(before: ThreadCpu, after: ThreadCpu): ThreadCpu {
  return {
    main: after.main - before.main,
    workers: Math.max(0, after.workers - before.workers),
    v8: Math.max(0, after.v8 - before.v8),
    other: Math.max(0, after.other - before.other),
  };
}
