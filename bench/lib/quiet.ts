// Waiting, untimed, until work a measured step left running is done: pages a browser is still closing, spare pages
// it is opening. Without the wait, that work is charged to whatever is measured next.
import { readdirSync, readFileSync } from 'node:fs';

export interface QuietOptions {
  /** Quiet once the processes use less than this share of one core over a window. @default 0.05 */
  cpuShare?: number;
  /** The window, in milliseconds. @default 250 */
  windowMs?: number;
  /** Gives up waiting after this long (a process that never rests). @default 10000 */
  capMs?: number;
}

/** Clock ticks per second of /proc's CPU times (100 on Linux everywhere this runs). */
const TICKS_PER_SECOND = 100;

/** The fields of `/proc/<pid>/stat` after the command name (which may hold spaces and parentheses), or undefined
 * once the process has ended: `[0]` is the state, `[1]` the parent pid, `[11]` and `[12]` utime and stime. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU time (user + system, in clock ticks) the processes `pids` have used so far; ended ones count as 0. */
function cpuTicks(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

/** This process and all its descendants (browsers, their renderers, forked children). */
export function processTree(root = process.pid): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(statFields(entry)?.[1]);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/**
 * Resolves once the processes `pids()` names (read again each window) use less than `cpuShare` of a core over a
 * window, or after `capMs`. Returns whether they came to rest.
 */
export async function waitUntilQuiet(pids: () => number[], options: QuietOptions = {}): Promise<boolean> {
  const { cpuShare = 0.05, windowMs = 250, capMs = 10_000 } = options;
  const cap = performance.now() + capMs;
  while (performance.now() < cap) {
    const watched = pids();
    const before = cpuTicks(watched);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    if (((cpuTicks(watched) - before) * 1000) / TICKS_PER_SECOND <= windowMs * cpuShare) return true;
  }
  return false;
}
