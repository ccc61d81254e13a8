import { info, type ErrorCodeInfo } from './error-code-info.js';

/** The codes of the services a scrape relies on: the language model, the browser, the store and Redis. */
export const SERVICE_CODES = {
  // Language models
  LLM_NOT_CONFIGURED: info(
    400,
    'A feature needs a language model and the engine has none.',
    'Pass `llm` to `new Crawlkit()`.',
  ),
  LLM_REQUEST_FAILED: info(
    502,
    "The language model's server failed or refused the request.",
    'Check the model server; retry later.',
  ),
  LLM_CONTEXT_EXCEEDED: info(
    400,
    "The page did not fit the model's context, even cut to the size the server stated.",
    'Lower `llm.maxInputTokens` (CLI: in crawlkit.config.json), or load the model with a longer context.',
  ),
  LLM_EXTRACTION_FAILED: info(
    500,
    "The model's answer stayed invalid for the `json` schema after the repair round, or was cut at its output limit.",
    'Simplify the schema or the prompt, or use a stronger model; for a cut answer raise `llm.maxOutputTokens`.',
  ),
  CRAWL_PROMPT_FAILED: info(
    400,
    "The model's answer to a crawl `prompt` gave no valid crawler options. A model request that failed (a refused key, a 5xx) keeps its own code, `LLM_REQUEST_FAILED`.",
    'Rephrase the prompt, or pass the crawler options yourself.',
  ),

  // Browser
  BROWSER_NOT_FOUND: info(
    500,
    'No Chromium executable was found.',
    'Install Chromium, or set `browser.executablePath` / `CRAWLKIT_CHROMIUM`.',
  ),
  BROWSER_LAUNCH_FAILED: info(
    500,
    'Chromium was found but did not start.',
    'Check its flags, libraries and memory (the message carries its output).',
  ),
  BROWSER_CONNECT_FAILED: info(
    500,
    'The browser of `browser.wsEndpoint` could not be reached.',
    'Start it, or fix the endpoint (the message names it); without `wsEndpoint` crawlkit launches its own.',
  ),
  BROWSER_CRASHED: info(500, "Chromium or the page's renderer crashed during the request.", 'Retry; check memory.'),
  FETCHER_CLOSED: info(500, 'A fetch was started after the engine closed its fetcher.', 'Use an open `Crawlkit`.'),

  // Store
  STORE_CLOSED: info(500, 'The store was used after `close()`.', 'Use an open `Crawlkit`.'),
  STORE_JOB_EXISTS: info(500, 'A job id was created twice in the store.', 'Report it: ids are generated.'),
  STORE_JOB_NOT_FOUND: info(
    500,
    'A store operation named a job the store does not hold.',
    'Check that every process uses the same store.',
  ),
  STORE_TASK_NOT_FOUND: info(500, 'A task was completed that was never added.', 'Report it.'),
  STORE_DELIVERY_EXISTS: info(500, 'A webhook delivery id was queued twice.', 'Report it.'),
  STORE_BUSY: info(
    500,
    'Another process held the database lock for longer than the busy timeout (5 s): the call fails, and `/ready` answers 503 with it until the lock is let go.',
    'Retry; keep one store per directory per host busy at a time.',
  ),
  STORE_CORRUPT: info(500, 'The database file is damaged or not a crawlkit store.', 'Use another `storeDir`.'),
  STORE_RECORD_INVALID: info(
    500,
    'A record in the store (a job request, a webhook delivery, a result) does not match its schema: damaged, or written by a newer crawlkit. A page cache entry like it is no copy: the page is fetched again.',
    'Upgrade crawlkit if another version wrote the store; otherwise delete the job or use another `storeDir`.',
  ),
  STORE_SCHEMA_TOO_NEW: info(
    500,
    'The store was written by a newer crawlkit: a SQLite store of a higher schema version, a Redis deployment of a higher layout version (`<prefix>:layout`). Nothing is read or written.',
    'Upgrade crawlkit (every worker and `serve` of a Redis deployment), or use another `storeDir` (`--redis-prefix`).',
  ),
  STORE_OPEN_FAILED: info(500, 'The store could not be created or opened.', 'Check the directory and its permissions.'),
  STORE_MIGRATION_COPY_FAILED: info(
    500,
    'The SQLite store file has an older schema, and the copy taken before migrating it (`crawlkit.db.schema-N.bak`, beside it) could not be written: a full disk, a read-only directory. Nothing was migrated.',
    'Free space for a copy as large as the store, or make its directory writable, and run again; or migrate ' +
      'without a copy (--no-migration-copy, storeMigrationCopy: false): no way back then.',
  ),
  STORE_IO: info(500, 'A read or write of the store failed (SQLite or Redis).', 'Check the disk or the Redis server.'),
  RECORDING_UNWRITABLE: info(
    500,
    "The WARC file of `record: true` cannot be written where it goes: `<storeDir>/warc/`, or a folder of the user's own, `crawlkit-warc-<uid>/`, in the temporary directory for a store that keeps nothing on disk (the message names the folder and why; one there that is a link or belongs to another user is refused). Nothing is fetched.",
    'Set `TMPDIR` to a directory this process can write (a memory store records there), or point `storeDir` at one.',
  ),
  STORE_FULL: info(
    503,
    "The store has less room left than the HTTP server requires (the SQLite file's disk, Redis's maxmemory): `/ready` answers it, and every new job (a crawl, a batch, a schedule's or monitor's run, over HTTP or MCP) is refused with it.",
    'Free disk space or raise maxmemory; `--ready-min-free` (MiB, default 64 or an eighth of the store when less) sets the room required, 0 none.',
  ),
  STORE_SECRET_KEY_MISSING: info(
    500,
    "A job's header values are stored encrypted, and no key is here to seal or open them.",
    'Share one `CRAWLKIT_SECRET_KEY` across Redis processes; keep `secret.key` with the store.',
  ),
  STORE_SECRET_UNREADABLE: info(
    500,
    "A job's encrypted header values were sealed with another key (or one kept in memory only).",
    'Run the job where its key is (the same secret key, the same store), or start it again.',
  ),
  REDIS_UNAVAILABLE: info(
    503,
    "Redis cannot be reached, or did not answer within the client's command timeout: the service is unavailable for now, as `/ready` says (503 there too). Jobs in flight are kept and go on once it answers.",
    'Check the URL and that the server is up; the call can be retried once it answers again.',
  ),
  REDIS_REFUSED: info(
    500,
    'Redis refused a command for good (`NOPERM`, `WRONGTYPE`, a script error): a job that meets it fails, since trying again meets the same answer.',
    "Do what the message says: give the URL's user every command on the prefix's keys, or the deployment its own prefix.",
  ),
  REDIS_EVICTION_POLICY: info(
    500,
    "Redis's `maxmemory-policy` evicts keys: it would drop jobs, their tasks and results silently.",
    'Set `maxmemory-policy noeviction` on the server, or pass `allowEviction: true` (`--redis-allow-eviction`) to go on.',
  ),
} as const satisfies Record<string, ErrorCodeInfo>;
