/**
 * `node --import ./test/helpers/source-hooks.ts child.ts`: lets a child process run crawlkit from its TypeScript
 * sources under Node's type stripping, as vitest does (no build needed). Workspace package names resolve to their
 * `src/index.ts` (the aliases of `vitest.config.ts`), and relative `./x.js` specifiers of the sources (NodeNext
 * style) to `./x.ts` when no `.js` file exists.
 */
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const packages = new URL('../../packages/', import.meta.url);
const WORKSPACE: Record<string, string> = {
  crawlkit: 'crawlkit',
  '@crawlkit/fetcher': 'fetcher',
  '@crawlkit/actions': 'actions',
  '@crawlkit/extractor': 'extractor',
  '@crawlkit/frontier': 'frontier',
  '@crawlkit/store': 'store',
};

registerHooks({
  resolve(specifier, context, nextResolve) {
    const pkg = WORKSPACE[specifier];
    if (pkg) return nextResolve(pathToFileURL(new URL(`${pkg}/src/index.ts`, packages).pathname).href, context);
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
