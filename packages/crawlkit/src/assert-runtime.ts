/**
 * Imported first by the library's entry (`index.ts`): an unsupported Node.js fails the import with
 * `NODE_UNSUPPORTED` and what to install, before any module that needs a newer Node runs.
 */
import { CrawlkitError } from './errors.js';
import { runtimeProblem } from './requirements.js';

const problem = runtimeProblem();
if (problem) throw new CrawlkitError('NODE_UNSUPPORTED', problem);
