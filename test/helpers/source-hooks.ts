/**
 * `node --import ./test/helpers/source-hooks.ts child.ts`: lets a child process run crawlkit from its TypeScript
 * sources under Node's type stripping, as vitest does (no build needed). `crawlkit` and `@crawlkit/<name>` resolve to
 * `packages/<name>/src/index.ts` and a subpath entry `@crawlkit/<name>/<entry>` to `packages/<name>/src/<entry>.ts`
 * (the aliases of `vitest.config.ts`); relative `./x.js` specifiers of the sources (NodeNext style) to `./x.ts` when
 * no `.js` file exists.
 */
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const packages = new URL('../../packages/', import.meta.url);

function sourceEntry(name: string, entry = 'index'): string {
  return pathToFileURL(new URL(`${name}/src/${entry}.ts`, packages).pathname).href;
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'crawlkit') return { url: sourceEntry('crawlkit'), shortCircuit: true };
    const scoped = /^@crawlkit\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(specifier);
    if (scoped && scoped[1] !== 'bench') return { url: sourceEntry(scoped[1]!, scoped[2]), shortCircuit: true };
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
      throw error;
    }
  },
});
