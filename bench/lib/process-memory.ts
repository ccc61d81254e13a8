import { readdirSync, readFileSync } from 'node:fs';

/** Proportional set size of a process in bytes (shared pages split between their users, so sums are honest). */
export function pss(pid: number | 'self'): number {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0; // The process ended meanwhile.
  }
}

/** Command lines by pid, with when each was first read: reading every process's cmdline at each memory sample was a
 * third of a core. A cmdline is trusted once it is 2 s old (a process just forked may not have exec'd yet). */
const cmdlines = new Map<number, { cmdline: string; seen: number }>();

/** Pids whose command line names one of `profiles`. */
export function processesOf(profiles: readonly string[]): number[] {
  if (profiles.length === 0) return [];
  const now = performance.now();
  const alive = new Set<number>();
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    alive.add(pid);
    let known = cmdlines.get(pid);
    if (!known || now - known.seen < 2000) {
      try {
        known = { cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8'), seen: known?.seen ?? now };
        cmdlines.set(pid, known);
      } catch {
        continue; // The process ended meanwhile.
      }
    }
    if (profiles.some((profile) => known.cmdline.includes(profile))) pids.push(pid);
  }
  for (const pid of cmdlines.keys()) if (!alive.has(pid)) cmdlines.delete(pid);
  return pids;
}
