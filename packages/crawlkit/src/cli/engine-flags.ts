/**
 * The engine's flags that `crawlkit worker` takes as every other command does: each defined here once, so that both
 * helps say the same. Part of the program's definition (loaded at every start): it imports only constants.
 */
import { DEFAULT_HTTP_LIMITS } from '@crawlkit/fetcher/http-limits';
import type { Command } from 'commander';

import { ENGINE_DEFAULTS } from '../engine-defaults.js';

/**
 * Adds `--engine`, `--max-body-bytes`, `--extraction-budget`, `--robots-timeout`, `--worker-memory` and
 * `--no-migration-copy` (read by `engineOptionsOf`).
 */
export function addEngineFlags(command: Command): Command {
  return command
    .option('--engine <engine>', `fetch engine: auto, http or browser (default ${ENGINE_DEFAULTS.engine})`)
    .option(
      '--max-body-bytes <n>',
      `largest response body, in bytes (http.limits.maxBodyBytes; default ${DEFAULT_HTTP_LIMITS.maxBodyBytes})`,
    )
    .option(
      '--extraction-budget <ms>',
      'time to extract a page or read a PDF or document, from its start; a PDF or document past it fails ' +
        `(extractionBudgetMs; default ${ENGINE_DEFAULTS.extractionBudgetMs})`,
    )
    .option(
      '--robots-timeout <ms>',
      'how long a crawl or map waits for robots.txt before going on without its rules ' +
        `(robotsTimeoutMs; default ${ENGINE_DEFAULTS.robotsTimeoutMs})`,
    )
    .option(
      '--worker-memory <MiB>',
      'memory each extraction worker thread may use, in MiB ' +
        `(workers.maxMemoryMb; default ${ENGINE_DEFAULTS.workerMemoryMb}, least ${ENGINE_DEFAULTS.workerMemoryMinMb})`,
    )
    .option(
      '--no-migration-copy',
      'migrate a store of an older crawlkit without keeping a copy of it first (a store too large to copy; no way ' +
        'back to the earlier crawlkit then) (storeMigrationCopy)',
    );
}
