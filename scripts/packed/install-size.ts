/**
 * The size of an npm install (`node_modules`, the bytes of its files), its largest packages, and the budget
 * `pnpm test:packed` holds it to: an install that grows past it fails the run, so a new dependency that brings
 * tens of megabytes is a decision (`docs/decisions.md`, "What `npm i crawlkit` installs"), not an accident.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const MB = 1_000_000;

/**
 * The measured install plus 10%, in bytes: the eleven tarballs on Linux x64 were 293.4 MB with officeparser an
 * optional peer (395.7 MB before, when it was a dependency).
 */
export const INSTALL_BUDGET_BYTES = 323 * MB;

/** The bytes of the files under `path` (symbolic links count as themselves). */
function bytes(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += bytes(join(path, entry));
  return total;
}

/** The packages of a `node_modules` (scoped ones by their full name), each with its size, largest first. */
export function installSize(nodeModules: string): { total: number; packages: [string, number][] } {
  const packages: [string, number][] = [];
  let total = 0;
  for (const entry of readdirSync(nodeModules)) {
    const path = join(nodeModules, entry);
    const names = entry.startsWith('@') ? readdirSync(path).map((name) => `${entry}/${name}`) : [entry];
    for (const name of names) {
      const size = bytes(join(nodeModules, name));
      packages.push([name, size]);
      total += size;
    }
  }
  return { total, packages: packages.sort((a, b) => b[1] - a[1]) };
}

/** Prints the size and the largest packages; throws when the install is past `budget` bytes. */
export function checkInstallSize(nodeModules: string, budget = INSTALL_BUDGET_BYTES): number {
  const { total, packages } = installSize(nodeModules);
  const largest = packages.slice(0, 8).map(([name, size]) => `${name} ${(size / MB).toFixed(1)}`);
  console.log(`[packed] install: ${(total / MB).toFixed(1)} MB (largest, MB: ${largest.join(', ')})`);
  if (total > budget) {
    throw new Error(
      `the install is ${(total / MB).toFixed(1)} MB, past its budget of ${(budget / MB).toFixed(1)} MB: ` +
        'see which package grew above; keep it out, or raise INSTALL_BUDGET_BYTES with the reason in docs/decisions.md',
    );
  }
  return total;
}
