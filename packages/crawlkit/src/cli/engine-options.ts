import type { CrawlkitOptions } from '../options.js';

import { CliError } from './errors.js';
import { integerFlag } from './integer-flag.js';

/** The engine's flags, which every command and `crawlkit worker` take (`addEngineFlags`), as commander gives them. */
export interface EngineFlags {
  engine?: string;
  concurrency?: string;
  maxBodyBytes?: string;
  extractionBudget?: string;
  robotsTimeout?: string;
  workerMemory?: string;
  urlPolicy?: string;
  /** `--no-migration-copy`: commander's `false`; `true` otherwise. */
  migrationCopy?: boolean;
}

/**
 * The engine options the flags set (`--engine`, `--concurrency`, `--max-body-bytes`, `--extraction-budget`,
 * `--robots-timeout`, `--worker-memory`, `--url-policy`, `--no-migration-copy`), each checked here once.
 * @throws {CliError} naming the flag and what it takes (exit code 2).
 */
export function engineOptionsOf(flags: EngineFlags): CrawlkitOptions {
  const options: CrawlkitOptions = {};
  const engine = flags.engine;
  if (engine !== undefined) {
    if (engine !== 'auto' && engine !== 'http' && engine !== 'browser') {
      // `replay` is an engine of the library, which takes its WARC files as options: the command is `crawlkit replay`.
      const hint = engine === 'replay' ? ' (`crawlkit replay <files...>` replays WARC files)' : '';
      throw new CliError(`Expected --engine to be auto, http or browser, got "${engine}"${hint}`);
    }
    options.engine = engine;
  }
  const concurrency = integerFlag('--concurrency', flags.concurrency);
  if (concurrency !== undefined) options.concurrency = concurrency;
  const maxBodyBytes = integerFlag('--max-body-bytes', flags.maxBodyBytes);
  if (maxBodyBytes !== undefined) options.http = { limits: { maxBodyBytes } };
  const extractionBudgetMs = integerFlag('--extraction-budget', flags.extractionBudget);
  if (extractionBudgetMs !== undefined) options.extractionBudgetMs = extractionBudgetMs;
  const robotsTimeoutMs = integerFlag('--robots-timeout', flags.robotsTimeout);
  if (robotsTimeoutMs !== undefined) options.robotsTimeoutMs = robotsTimeoutMs;
  // Its least (64 MiB) is the engine's to check: its INVALID_OPTION names `workers.maxMemoryMb`, told as this flag
  const maxMemoryMb = integerFlag('--worker-memory', flags.workerMemory);
  if (maxMemoryMb !== undefined) options.workers = { maxMemoryMb };
  const urlPolicy = parseUrlPolicyFlag(flags.urlPolicy);
  if (urlPolicy !== undefined) options.urlPolicy = urlPolicy;
  if (flags.migrationCopy === false) options.storeMigrationCopy = false;
  return options;
}

/**
 * `--url-policy` (or `CRAWLKIT_URL_POLICY`): `strict`, or a `UrlPolicy` as a JSON object. Jobs keep the policy they
 * were submitted under, so a worker's own policy only tightens theirs.
 */
export function parseUrlPolicyFlag(value = process.env.CRAWLKIT_URL_POLICY): CrawlkitOptions['urlPolicy'] {
  if (value === undefined || value === '') return undefined;
  if (value === 'strict') return 'strict';
  let policy: unknown;
  try {
    policy = JSON.parse(value);
  } catch {
    policy = undefined;
  }
  if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) {
    throw new CliError(
      `Expected --url-policy to be strict or a JSON object such as '{"allowedHosts":["*.example.com"]}', got "${value}"`,
    );
  }
  return policy;
}
