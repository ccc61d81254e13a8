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
