// This process's peak resident set. Not `process.resourceUsage().maxRSS`: on Linux that keeps the high-water mark of
// the parent a child process was forked from (the forked copy's RSS is carried over at exec), so a child spawned by a
// bench holding its inputs would report the parent's size.
import { readFileSync } from 'node:fs';

/** Peak RSS in bytes (`VmHWM` of /proc/self/status), or `undefined` where /proc has none. */
export function peakRssBytes(): number | undefined {
  const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

/** Peak RSS in MiB, rounded; `resourceUsage().maxRSS` where /proc has no `VmHWM`. */
export function peakRssMB(): number {
  const bytes = peakRssBytes() ?? process.resourceUsage().maxRSS * 1024;
  return Math.round(bytes / 2 ** 20);
}
