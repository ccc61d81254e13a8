// The extraction worker's file, beside this one: `.js` in dist, `.ts` when the tests run the sources (under Node's
// type stripping, with the source hooks that resolve the workspace packages and `.js` specifiers).
// The literal `new URL('./worker.js', import.meta.url)` is what a file tracer (Next's standalone output, @vercel/nft)
// copies; the `.ts` name is made from it, since a literal naming a file dist lacks fails a webpack build of crawlkit.
export const FROM_SOURCE = import.meta.url.endsWith('.ts');
const BUILT_WORKER = new URL('./worker.js', import.meta.url);
export const WORKER_FILE = FROM_SOURCE ? new URL(BUILT_WORKER.href.replace(/\.js$/, '.ts')) : BUILT_WORKER;
// The workspace's hooks, not in the package: found from this file's path by a string operation, since a literal
// `new URL('…', import.meta.url)` is an asset of the package to webpack and Turbopack, whose builds failed on it.
export const SOURCE_HOOKS = import.meta.url.replace(
  /packages\/crawlkit\/src\/extraction\/worker-file\.ts$/,
  'test/helpers/source-hooks.ts',
);
