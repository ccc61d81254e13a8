/**
 * `node --import ./test/helpers/built-hooks.ts child.ts`: a child process of the tests runs crawlkit's build (`dist/`),
 * as an app that installed it does: `crawlkit` and `@crawlkit/<name>` resolve to `packages/<name>/dist/index.js`, a
 * subpath entry `@crawlkit/<name>/<entry>` to `packages/<name>/dist/<entry>.js`. A child on the sources
 * (`source-hooks.ts`) strips the types of ~250 modules at its start: ~0.2 s more CPU each with the compile cache warm.
 * The test calls `ensureBuilt()` (`test/cli-helpers.ts`) first, which builds what is older than its sources.
 */
import { registerPackageHooks } from './package-hooks.ts';

registerPackageHooks('dist');
