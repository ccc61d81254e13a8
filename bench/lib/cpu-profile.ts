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
export function summarizeProfile(file: string, root: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const samples = profile.samples?.length ?? profile.nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0);
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const msPerHit = samples ? totalMs / samples : 0;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
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
