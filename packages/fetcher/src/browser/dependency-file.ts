import { existsSync } from 'node:fs';

/**
 * A data file of a dependency whose `exports` do not name it, so that no `require.resolve` reaches it: the first of
 * `places` that exists, else `otherwise()` (found from the dependency's entry). The caller writes `places` as
 * `join(import.meta.dirname, '<literal path>')`, where Node looks for the dependency from its file (the package's own
 * node_modules, then the node_modules it sits in, as npm and pnpm install it): a file tracer (Next's
 * `output: 'standalone'`, `@vercel/nft`) reads such paths and copies the file into a deployment, which it does not
 * for a path put together from `require.resolve` at run time.
 */
export function dependencyFile(places: readonly string[], otherwise: () => string): string {
  return places.find((place) => existsSync(place)) ?? otherwise();
}
