/**
 * Removes from a package's `dist` what no source emits any more. `tsc` writes outputs and never deletes one whose
 * source was moved or removed, so a long-lived checkout would otherwise pack dead modules into the tarball.
 * Run from the package's folder, after its `tsc` build.
 */
import { existsSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

const OUTPUT = /\.(?:(c?)js|d\.(c?)ts)(?:\.map)?$/;

function prune(dist: string, src: string): boolean {
  let empty = true;
  for (const entry of readdirSync(dist, { withFileTypes: true })) {
    const path = join(dist, entry.name);
    if (entry.isDirectory()) {
      if (prune(path, join(src, entry.name))) rmdirSync(path);
      else empty = false;
      continue;
    }
    if (OUTPUT.test(entry.name) && !existsSync(join(src, entry.name.replace(OUTPUT, '.$1$2ts')))) rmSync(path);
    else empty = false;
  }
  return empty;
}

if (existsSync('dist')) prune('dist', 'src');
