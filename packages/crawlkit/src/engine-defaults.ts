/**
 * The engine's defaults that the command line's help says too, in one place: `options.ts`'s schema takes them and the
 * help reads them, so the two cannot drift. A module of constants alone: `crawlkit --help` loads it without zod or
 * any engine module (test/startup-modules.test.ts).
 */
export const ENGINE_DEFAULTS = {
  /** The store directory when none is given (`storeDir`, `--store`). */
  storeDir: './.crawlkit',
  /** Pages at once across the engine (`concurrency`, `--concurrency`). */
  concurrency: 16,
  /** Largest file `parse()` takes, in bytes (`parseFileLimit`, `--parse-file-limit`): 50 MiB. */
  parseFileLimit: 50 * 1024 * 1024,
  /** How often to look for jobs a dead process left, in ms (`resumeScanMs`, `--resume-scan`). */
  resumeScanMs: 10_000,
  /** How long a job's results stay after it ends, in ms (`jobResultTtlMs`, `--job-ttl`): 24 h. */
  jobResultTtlMs: 86_400_000,
  /** The fetch engine (`engine`, `--engine`). */
  engine: 'auto',
  /** Time to extract a page or read a document, in ms (`extractionBudgetMs`, `--extraction-budget`). */
  extractionBudgetMs: 10_000,
  /** How long a crawl or map waits for robots.txt, in ms (`robotsTimeoutMs`, `--robots-timeout`). */
  robotsTimeoutMs: 10_000,
  /** Memory of each extraction worker thread, in MiB (`workers.maxMemoryMb`, `--worker-memory`). */
  workerMemoryMb: 1024,
  /** The least `workers.maxMemoryMb` takes, in MiB. */
  workerMemoryMinMb: 64,
} as const;
