/**
 * `node --import ./test/helpers/source-hooks.ts child.ts`: lets a child process run crawlkit from its TypeScript
 * sources under Node's type stripping, as vitest does (no build needed). `crawlkit` and `@crawlkit/<name>` resolve to
 * `packages/<name>/src/index.ts` and a subpath entry `@crawlkit/<name>/<entry>` to `packages/<name>/src/<entry>.ts`
 * (the aliases of `vitest.config.ts`); relative `./x.js` specifiers of the sources (NodeNext style) to `./x.ts` when
 * no `.js` file exists.
 */
import { registerPackageHooks } from './package-hooks.ts';

registerPackageHooks('src');
