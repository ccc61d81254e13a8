import { createRequire } from 'node:module';

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
 * `lazyModule` for a caller that cannot wait: the module `id` (CommonJS or JSON), required at the first call as the
 * module at `from` (its `import.meta.url`) would require it, then kept. A load that throws is not kept: the next call
 * tries again.
 */
export function lazyRequire<T>(from: string | URL, id: string): () => T {
  let loaded: { module: T } | undefined;
  return () => (loaded ??= { module: createRequire(from)(id) as T }).module;
}
