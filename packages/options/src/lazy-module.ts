import { existsSync } from 'node:fs';

/**
 * A module loaded at the first call that needs it, not when its importer loads: what a plain scrape never uses
 * (document readers, the proxy server, the AI SDK, JSON Schema, diff, WARC) stays out of `import 'crawlkit'`.
 * The load is shared by concurrent callers; one that fails (a missing optional module) is forgotten, so that the
 * next call tries again, and its error reaches the caller, which reports it as its own typed error.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}

/**
 * `lazyModule` for a caller that cannot wait: `load` (a `require('id')` of a CommonJS or JSON module) runs at the
 * first call, and its module is kept. A load that throws is not kept: the next call tries again. The caller writes the
 * `require('literal')` itself, with a `require` from `createRequire(import.meta.url)` in the same file: that is the
 * form a file tracer (Next's `output: 'standalone'`, `@vercel/nft`) reads to copy the module into a deployment.
 */
export function lazyRequire<T>(load: () => T): () => T {
  let loaded: { module: T } | undefined;
  return () => (loaded ??= { module: load() }).module;
}

/**
 * A data file of a dependency that no `require.resolve` literal reaches in every tracer (its package's `exports` do not
 * name it, or a tracer takes a resolved `.gz` or `.txt` for a module and drops it): the first of `places` that exists,
 * else `otherwise()` (found from the dependency's entry). The caller writes `places` as
 * `join(import.meta.dirname, '<literal path>')`, where Node looks for the dependency from its file (its package's own
 * node_modules, then the node_modules the package sits in, as npm and pnpm install it): file tracers (Next's
 * `output: 'standalone'`, `@vercel/nft`) compute such paths and copy the file into a deployment, which they do not for
 * a path put together from `require.resolve` at run time.
 */
export function dependencyFile(places: readonly string[], otherwise: () => string): string {
  return places.find((place) => existsSync(place)) ?? otherwise();
}
