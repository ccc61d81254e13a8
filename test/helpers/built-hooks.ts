/**
 * `node --import ./test/helpers/built-hooks.ts child.ts`: a child process of the tests runs crawlkit's build (`dist/`),
 * as an app that installed it does: `crawlkit` and `@crawlkit/<name>` resolve to `packages/<name>/dist/index.js`, a
 * subpath entry `@crawlkit/<name>/<entry>` to `packages/<name>/dist/<entry>.js`. A child on the sources
 * (`source-hooks.ts`) strips the types of ~250 modules at its start: ~0.4 s more CPU each. The test calls
 * `ensureBuilt()` (`test/cli-helpers.ts`) first, which builds what is older than its sources.
 */
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const packages = new URL('../../packages/', import.meta.url);

function builtEntry(name: string, entry = 'index'): string {
  return pathToFileURL(new URL(`${name}/dist/${entry}.js`, packages).pathname).href;
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'crawlkit') return { url: builtEntry('crawlkit'), shortCircuit: true };
    const scoped = /^@crawlkit\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(specifier);
    if (scoped && scoped[1] !== 'bench') return { url: builtEntry(scoped[1]!, scoped[2]), shortCircuit: true };
    return nextResolve(specifier, context);
  },
});
