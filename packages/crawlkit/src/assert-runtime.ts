/**
 * Imported first by the library's entry (`index.ts`): an unsupported Node.js fails the import with
 * `NODE_UNSUPPORTED` and what to install, before any module that needs a newer Node runs; crawlkit bundled into an
 * app's file fails it with `PACKAGE_BUNDLED` and what to mark external, before a page fails far from the cause.
 */
import { CrawlkitError } from './errors.js';
import { bundleProblem, runtimeProblem } from './requirements.js';

const problem = runtimeProblem();
if (problem) throw new CrawlkitError('NODE_UNSUPPORTED', problem);
declare const __webpack_require__: unknown;
declare const __turbopack_require__: unknown;
const bundler =
  typeof __webpack_require__ === 'function'
    ? 'webpack'
    : typeof __turbopack_require__ === 'function'
      ? 'Turbopack'
      : undefined;
const bundled = bundleProblem(import.meta.url, bundler);
if (bundled) throw new CrawlkitError('PACKAGE_BUNDLED', bundled);
