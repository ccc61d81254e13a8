import { info, type ErrorCodeInfo } from './error-code-info.js';

/** The codes of requests and of jobs: bad input, auth and limits of the HTTP server, a job's life. */
export const REQUEST_CODES = {
  // Requests
  BAD_REQUEST: info(
    400,
    'The body or an argument is invalid: unknown key, wrong type, a rule of the v2 API broken, a bad job id.',
    'Fix the request; the message names the field and `details` lists every problem.',
  ),
  BAD_REQUEST_INVALID_JSON: info(
    400,
    'The HTTP body is not valid JSON (HTTP server only).',
    'Send a JSON object with `Content-Type: application/json`.',
  ),
  CLI_USAGE: info(400, 'A command-line flag or argument is wrong.', 'Run the command with `--help`.'),
  UNAUTHORIZED: info(
    401,
    'The HTTP server needs an API key and the request has none, or another one (HTTP server only).',
    'Send `Authorization: Bearer <key>` with one of the server keys.',
  ),
  INSUFFICIENT_CREDITS: info(
    402,
    "A call's credits do not fit under its `creditLimit` (`crawlkit serve --credit-limit`), spent or reserved; upstream's answer when a team's credits run out.",
    "Raise the limit (nothing is charged locally), or lower the request's `limit` or number of URLs.",
  ),
  IDEMPOTENCY_KEY_REUSED: info(
    409,
    'A crawl or batch start reused an idempotency key (`x-idempotency-key`; `idempotencyKey` in-process) while its job is kept.',
    'Use a new key for a new job; read the first job with its id.',
  ),
  QUEUE_FULL: info(
    429,
    'The HTTP server already has `queueLimit` scrape, map, search, parse and params-preview requests of this API key in progress (of any key, keyless or with `keysShareJobs`; HTTP server only).',
    "Retry later, or raise the server's `queueLimit` (`--queue-limit`).",
  ),
  PAYLOAD_TOO_LARGE: info(
    413,
    "The HTTP body is larger than the server's `bodyLimit`, or a file to parse is larger than `parseFileLimit` (the " +
      "server's for an upload, the engine's for `ck.parse()` and `crawlkit parse`).",
    'Send fewer URLs per batch (or use `appendToId`), or raise `bodyLimit` (`--body-limit`); for a file, raise ' +
      '`parseFileLimit` (`--parse-file-limit`) or split the file.',
  ),
  REQUEST_HEADERS_TOO_LARGE: info(
    431,
    "The request's headers are larger than Node's limit, 16 KiB by default (HTTP server only); the connection is closed.",
    'Send fewer or shorter headers (a long cookie or custom header), or start Node with `--max-http-header-size`.',
  ),
  REQUEST_TIMEOUT: info(
    408,
    "The HTTP body did not arrive within the server's `bodyTimeoutMs`; the connection is closed (HTTP server only).",
    'Send the body at once, or raise `bodyTimeoutMs` (`--body-timeout`) for slow links.',
  ),
  ORIGIN_NOT_ALLOWED: info(
    403,
    "A browser request came from a web origin the server's `cors` setting does not allow, or named a host other than loopback (`Host`) on a server without keys (HTTP server only).",
    'Start the server with `--cors <origin>` (or `cors: [origin]`) for that site; clients outside browsers send no origin.',
  ),
  ROUTE_NOT_FOUND: info(
    404,
    'No route of the v2 (or v1) API has this method and path (HTTP server only).',
    'Check the path and method against the v2 API reference.',
  ),
  ENDPOINT_NOT_SUPPORTED: info(
    404,
    'A Firecrawl endpoint crawlkit does not offer (extract, agent, deep research, …; the message names it) (HTTP server only), or the MCP tool `firecrawl_extract` (its `nextTool` is the call to make instead).',
    'Use the hosted service for it; crawlkit serves scrape, parse, crawl, batch scrape, map, search, usage and queue status.',
  ),
  URL_BLOCKED: info(
    403,
    'The `urlPolicy` refused the URL or an address it resolves to (the message names the rule).',
    'Use another URL, or allow the host or network in `urlPolicy`.',
  ),
  ABORTED: info(
    500,
    "The caller's `signal` aborted the call, fetch or action run; a job the call started keeps running.",
    'Nothing, if you aborted on purpose; cancel the job to stop it too.',
  ),
  INVALID_OPTION: info(
    500,
    'A constructor or factory (`new Crawlkit()`, `new Fetcher()`, a store, `redis()`) got an unknown option, a wrong type or a value out of range (thrown as a `TypeError`).',
    'Fix the option the message names by its path; the options interface documents each one.',
  ),
  ENGINE_CLOSED: info(
    500,
    'A method was called after `close()`, or `close()` stopped one under way (`waitForJob`, `watch`).',
    'Create a new `Crawlkit`; on the same store a job left unfinished resumes with `resumeJob(id)` (all with `resumeJobs: true`).',
  ),
  NODE_UNSUPPORTED: info(
    500,
    'This Node.js is older than crawlkit needs (22.16), its `node:sqlite` (or that of the Bun or Deno running crawlkit) is missing or lacks FTS5 (thrown on import), or its `require()` of ES modules is turned off (`--no-experimental-require-module`).',
    'Install Node.js 22.16 or later (an LTS from nodejs.org, or `nvm install --lts`) and run crawlkit with it, or drop the flag; on Bun or Deno, upgrade it (checked on Bun 1.4.5, Deno 2.9.6).',
  ),
  LISTEN_FAILED: info(
    500,
    'A server command (`serve`, `mcp --http`) could not listen on its address: another process listens there, this user may not bind it (a port under 1024), or the machine has no such address (`--host`).',
    'Stop the other process, or give another `--port` (0 picks a free one), or a `--host` the machine has.',
  ),
  OUTPUT_UNWRITABLE: info(
    500,
    "The command line's `--out` file or folder could not be written once the command ran (no room left on the disk, a folder removed or made read-only meanwhile; the message names the file and why). A path that cannot take the output from the start is refused before anything runs, as `CLI_USAGE`.",
    "Free some space or give an `--out` that can be written, and run the command again: a job's pages are kept in the store (`crawlkit resume <id> --all --out …`), and a scrape's page in the cache.",
  ),
  PACKAGE_BUNDLED: info(
    500,
    "crawlkit was bundled into an app's file (esbuild, rollup, webpack), where the files its worker threads start from (page extraction, PDFs, OCR) are missing (thrown on import).",
    'Keep `crawlkit` and `@crawlkit/*` external (esbuild `--packages=external`), installed beside the bundle (README, Bundling).',
  ),
  UNKNOWN_ERROR: info(
    500,
    'An unexpected failure without a code of its own.',
    'Report it with the message; retrying may help.',
  ),

  // Jobs
  JOB_NOT_FOUND: info(
    404,
    'No crawl or batch with this id in the store (or expired, or started by another API key). The methods of ' +
      "`ck` answer it for a job of the other kind too (`getBatchScrapeStatus` of a crawl's id); `serve`, as " +
      'upstream, answers either kind at either path.',
    'Check the id and the store; results are kept `jobResultTtlMs` after the job ends.',
  ),
  SCHEDULE_NOT_FOUND: info(
    404,
    'No schedule with this id in the store (deleted, or made by another API key).',
    'List the schedules (`GET /v2/schedule`, `crawlkit schedules`) for their ids.',
  ),
  MONITOR_NOT_FOUND: info(
    404,
    'No monitor with this id in the store (deleted, or made by another API key).',
    'List the monitors (`GET /v2/monitor`, `firecrawl monitor list`) for their ids.',
  ),
  MONITOR_CHECK_NOT_FOUND: info(
    404,
    "No check with this id in the monitor (another monitor's, or past its `retentionDays`).",
    "List the monitor's checks (`GET /v2/monitor/:id/checks`) for their ids.",
  ),
  SCHEDULES_UNSUPPORTED: info(
    501,
    'The store given to crawlkit keeps no schedules (it has no `schedules` part).',
    'Use the on-disk store, `store: "memory"`, a Redis store, or a custom store with a `ScheduleStore`.',
  ),
  JOB_ALREADY_COMPLETED: info(409, 'The job to cancel has already finished.', 'Nothing to cancel; read its status.'),
  JOB_CANCELLED: info(409, '`appendToId` named a batch that was cancelled.', 'Start a new batch with the URLs.'),
  JOB_NOT_RESUMABLE: info(
    409,
    '`resumeJob` (or `crawlkit resume` without `--all`) named a job that is not running (completed, failed or cancelled).',
    'Nothing to resume; start a new job. `crawlkit resume <id> --all` prints its pages.',
  ),
  JOB_STORE_BUDGET_EXCEEDED: info(
    500,
    'A crawl or batch stored more result bytes than `jobs.maxStoreBytes` allows (a job error); the job ended failed.',
    'Raise `jobs.maxStoreBytes` in `new Crawlkit()`, or narrow the job (`limit`, `includePaths`, `maxDiscoveryDepth`).',
  ),
  SCRAPE_FAILED: info(
    500,
    'A page of a job failed (the `error` event of a job page; its own code is in the job errors).',
    'Read `getCrawlErrors` / `getBatchScrapeErrors` for the code and message of each page.',
  ),
  WORKER_FAILED: info(
    500,
    'A distributed task failed on every attempt, in every worker that took it.',
    "Check the workers' logs; the message carries the last failure.",
  ),
  CRAWL_DENIAL: info(
    500,
    "A crawled page redirected to a URL that the crawl's rules do not admit (a job error).",
    'Widen `includePaths`, `allowSubdomains` or `crawlEntireDomain` if you want such pages.',
  ),
  CRAWL_SIGN_IN_REDIRECT: info(
    500,
    'A crawled page (not the seed) redirected to a sign-in page whose query names it as the way back (`?next=`, `?service=`): the session did not reach it, and the sign-in page is not stored as the page (a job error).',
    "Send the session with the crawl's `scrapeOptions.headers` (a `Cookie` or `Authorization` header), or exclude the pages it may not read (`excludePaths`).",
  ),
  WEBHOOK_DELIVERY_FAILED: info(
    500,
    'A webhook event was given up after its attempts, or at once for an answer no retry changes (a 4xx, a redirect).',
    'Check what the receiver answered (in the error); tune `webhooks.maxAttempts`, `webhooks.timeoutMs` (serve: config file).',
  ),
  BACKEND_REQUIRED: info(
    500,
    '`startWorker()` was called on an engine without a distributed `backend`.',
    'Pass `backend: redis({ url })` to `new Crawlkit()`.',
  ),
} as const satisfies Record<string, ErrorCodeInfo>;
