// Reads a V8 `.cpuprofile` (node --cpu-prof) and ranks where the time went: self time by function and by file.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  /** µs from the previous sample (the first: from `startTime`), one a sample. */
  timeDeltas?: number[];
}

/**
 * A span of a profile, in µs of the clock its timestamps use (V8's monotonic clock, the one `process.hrtime` reads):
 * only the samples taken inside it count. Profiles of several threads of one process share that clock, so one span
 * (a benchmark's timed part, printed by the profiled process) cuts each thread's profile to the same moments.
 */
export interface ProfileWindow {
  startUs: number;
  endUs: number;
}

export interface HotSpot {
  /** `function (file:line)` or a file path. */
  name: string;
  /** Self time in milliseconds. */
  selfMs: number;
  /** Share of the sampled busy time (idle left out), 0..1. */
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** Time the thread sampled idle (waiting for I/O or for another thread): left out of the lists and shares. */
  idleMs: number;
  functions: HotSpot[];
  files: HotSpot[];
}

/** Where a frame's code lives: a workspace-relative path, `node_modules/<pkg>/...`, `node:...`, or `(native)`. */
function place(url: string, root: string): string {
  if (!url) return '(native)';
  const path = url.startsWith('file://') ? new URL(url).pathname : url;
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) return path.slice(nm + 1).replace(/^node_modules\/\.pnpm\/[^/]+\/node_modules\//, 'node_modules/');
  return path.startsWith('/') ? relative(root, path) : path;
}

/**
 * The `top` functions and files by self time of the profile at `file`; paths relative to `root`. Idle samples are
 * counted apart: a thread that hands its work to others (the worker pool) is mostly idle, and its lists would
 * otherwise be one `(idle)` row above rows of a few percent.
 */
export function summarizeProfile(file: string, root: string, top = 20, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const hitsOf = window ? hitsIn(profile, window) : undefined;
  const hitCount = (node: ProfileNode) => (hitsOf ? (hitsOf.get(node.id) ?? 0) : (node.hitCount ?? 0));
  const samples = hitsOf
    ? [...hitsOf.values()].reduce((a, b) => a + b, 0)
    : (profile.samples?.length ?? profile.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0));
  const totalMs = window
    ? (Math.min(window.endUs, profile.endTime) - Math.max(window.startUs, profile.startTime)) / 1000
    : (profile.endTime - profile.startTime) / 1000;
  const msPerHit = samples ? totalMs / samples : 0;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const hits = hitCount(node);
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (!url && functionName === '(idle)') {
      idle += hits;
      continue;
    }
    const where = place(url, root);
    const fn = url ? `${functionName || '(anonymous)'} (${where}:${lineNumber + 1})` : functionName || '(anonymous)';
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
    const group = url ? where : `(${functionName || 'native'})`;
    byFile.set(group, (byFile.get(group) ?? 0) + hits);
  }
  const rank = (m: Map<string, number>): HotSpot[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({
        name,
        selfMs: Math.round(hits * msPerHit),
        share: busy ? Math.round((hits / busy) * 1000) / 1000 : 0,
      }));
  const busy = samples - idle;
  return {
    totalMs: Math.round(totalMs),
    idleMs: Math.round(idle * msPerHit),
    functions: rank(byFunction),
    files: rank(byFile),
  };
}

/** Samples by node id of those taken inside `window` (a profile without per-sample times has none). */
function hitsIn(profile: Profile, window: ProfileWindow): Map<number, number> {
  const hits = new Map<number, number>();
  const { samples = [], timeDeltas = [] } = profile;
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i] ?? 0;
    if (at < window.startUs || at > window.endUs) continue;
    hits.set(samples[i]!, (hits.get(samples[i]!) ?? 0) + 1);
  }
  return hits;
}
