// CPU time of this process by kind of thread, from /proc/self/task (Linux): its main thread, its worker threads
// (`worker_threads`: the extraction pool's), V8's helper threads (garbage collection, compilation) and the rest
// (libuv's pool, …). The question it answers: where a scrape's CPU goes when the pool is on (issue 37).
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  main: number;
  workers: number;
  v8: number;
  other: number;
}

/** Milliseconds of CPU (user + system) by thread kind so far, or `undefined` where /proc has no tasks. */
export function threadCpuMs(): ThreadCpu | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const tick = 1000 / 100; // USER_HZ: 100 on Linux
  const out: ThreadCpu = { main: 0, workers: 0, v8: 0, other: 0 };
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * tick;
    if (task === String(process.pid)) out.main += ms;
    else if (name === 'WorkerThread') out.workers += ms;
    else if (name.startsWith('V8')) out.v8 += ms;
    else out.other += ms;
  }
  return out;
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
