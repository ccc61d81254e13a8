/** The distributed tests' "each page fetched once, and by the worker", in one place. */
import { expect } from 'vitest';

import type { TreeSite } from '../distributed/tree-site.ts';

/**
 * Asserts that the site served each page of its tree once (no page fetched twice, none missed), and that the worker
 * whose output is given stored each of them (its `page <job> <url> (200)` line): the submitting process ran none.
 */
export function expectFetchedOnce(site: TreeSite, siteUrl: string, workerOutput: string): void {
  const paths = new Set(site.paths());
  const fetched = site.hits.map((hit) => hit.path).filter((path) => paths.has(path));
  expect(fetched.sort()).toEqual([...paths].sort());
  for (const path of paths) expect(workerOutput).toContain(`${siteUrl}${path} (200)`);
}
