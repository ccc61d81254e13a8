import type { ActionErrorCode } from '@crawlkit/actions';
import type { DocumentErrorCode } from '@crawlkit/documents';
import type { ExtractorErrorCode, MarkdownBudgetErrorCode } from '@crawlkit/extractor';
import type { BrowserErrorCode, FetchErrorCode } from '@crawlkit/fetcher';
import type { StoreErrorCode } from '@crawlkit/store';

/** What a code means, the HTTP status the v2 API answers it with, and what the caller can do about it. */
export interface ErrorCodeInfo {
  /** The HTTP status of a v2 response carrying this code (reference §17 where upstream has the code). */
  readonly status: number;
  /** What happened. */
  readonly meaning: string;
  /** What to do about it. */
  readonly action: string;
}

const info = (status: number, meaning: string, action: string): ErrorCodeInfo => ({ status, meaning, action });

/**
 * Every error code a crawlkit package returns or throws, with its HTTP status. This table is the one home of the
 * code → status rule: `CrawlkitError#status`, the scrape path and the HTTP server read it, and the README's error
 * table is generated from it (`pnpm docs:errors`).
 */
export const ERROR_CODES = {
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
    'The HTTP server already has `queueLimit` scrape, map and params-preview requests in progress (HTTP server only).',
    "Retry later, or raise the server's `queueLimit` (`--queue-limit`).",
  ),
  PAYLOAD_TOO_LARGE: info(
    413,
    "The HTTP body is larger than the server's `bodyLimit` (HTTP server only).",
    'Send fewer URLs per batch (or use `appendToId`), or raise `bodyLimit` (`--body-limit`).',
  ),
  REQUEST_TIMEOUT: info(
    408,
    "The HTTP body did not arrive within the server's `bodyTimeoutMs`; the connection is closed (HTTP server only).",
    'Send the body at once, or raise `bodyTimeoutMs` (`--body-timeout`) for slow links.',
  ),
  ORIGIN_NOT_ALLOWED: info(
    403,
    "A browser request came from a web origin the server's `cors` setting does not allow (HTTP server only).",
    'Start the server with `--cors <origin>` (or `cors: [origin]`) for that site; clients outside browsers send no origin.',
  ),
  ROUTE_NOT_FOUND: info(
    404,
    'No route of the v2 (or v1) API has this method and path (HTTP server only).',
    'Check the path and method against the v2 API reference.',
  ),
  ENDPOINT_NOT_SUPPORTED: info(
    404,
    'A Firecrawl endpoint crawlkit does not offer (extract, agent, deep research, …; the message names it) (HTTP server only).',
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
    'A method was called after `close()`.',
    'Create a new `Crawlkit`; jobs left unfinished resume there.',
  ),
  NODE_UNSUPPORTED: info(
    500,
    'This Node.js is older than crawlkit needs (22.13), or was built without `node:sqlite` (thrown on import).',
    'Install Node.js 22.13 or later (an LTS from nodejs.org, or `nvm install --lts`) and run crawlkit with it.',
  ),
  UNKNOWN_ERROR: info(
    500,
    'An unexpected failure without a code of its own.',
    'Report it with the message; retrying may help.',
  ),

  // Jobs
  JOB_NOT_FOUND: info(
    404,
    'No crawl or batch with this id in the store (or one of the other kind, or expired).',
    'Check the id and the store; results are kept `jobResultTtlMs` after the job ends.',
  ),
  JOB_ALREADY_COMPLETED: info(409, 'The job to cancel has already finished.', 'Nothing to cancel; read its status.'),
  JOB_CANCELLED: info(409, '`appendToId` named a batch that was cancelled.', 'Start a new batch with the URLs.'),
  JOB_NOT_RESUMABLE: info(
    409,
    '`resumeJob` named a job that is not running (completed, failed or cancelled).',
    'Nothing to resume; start a new job.',
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
  WEBHOOK_DELIVERY_FAILED: info(
    500,
    'A webhook event was given up after its attempts (a job error).',
    'Check the receiver; tune `webhooks.maxAttempts` and `webhooks.timeoutMs`.',
  ),
  BACKEND_REQUIRED: info(
    500,
    '`startWorker()` was called on an engine without a distributed `backend`.',
    'Pass `backend: redis({ url })` to `new Crawlkit()`.',
  ),

  // Scrape
  SCRAPE_TIMEOUT: info(
    408,
    'The page did not finish within `timeout` (else `timeoutMs`): fetch, actions and extraction together.',
    'Raise `timeout`, lower `waitFor`, or use fewer actions.',
  ),
  MAP_TIMEOUT: info(408, 'The map did not finish within its `timeout`.', 'Raise `timeout` or lower `limit`.'),
  // Search
  SEARCH_TIMEOUT: info(
    408,
    'The search (its provider and the scrapes of `scrapeOptions`) did not finish within its `timeout`.',
    'Raise `timeout`, lower `limit`, or search without `scrapeOptions`.',
  ),
  SEARCH_PROVIDER_FAILED: info(
    502,
    'The web search provider (SearXNG, Brave) could not be reached, refused the request or answered something else than its JSON.',
    'Check the provider configured (`--searxng-url`, `--brave-api-key`); a SearXNG instance must list `json` in `search.formats`.',
  ),
  SCRAPE_NO_CACHED_DATA: info(
    404,
    '`minAge` asked for a cached page and the cache holds none that old.',
    'Scrape without `minAge` first, or lower it.',
  ),
  SCRAPE_LOCKDOWN_CACHE_MISS: info(
    404,
    '`lockdown` serves pages from the page cache only, with no network, and the cache holds no copy of this page for these options.',
    'Scrape the page once without `lockdown` (with `storeInCache`), or drop `lockdown`.',
  ),
  SCRAPE_DNS_RESOLUTION_ERROR: info(
    200,
    'The host name does not resolve. Like upstream, HTTP 200 with `success: false`.',
    'Check the domain.',
  ),
  SCRAPE_SSL_ERROR: info(
    500,
    'The TLS handshake or the certificate failed.',
    'Fix the certificate, or set `skipTlsVerification: true` when no sensitive data is sent.',
  ),
  SCRAPE_CONNECTION_ERROR: info(
    500,
    'The connection was refused, reset or closed before a complete response.',
    'Check that the site is up; retry later.',
  ),
  SCRAPE_INVALID_RESPONSE: info(500, 'The server answered with something that is not valid HTTP.', 'Retry later.'),
  SCRAPE_INVALID_URL: info(400, 'The URL does not parse.', 'Send an absolute http(s) URL.'),
  SCRAPE_UNSUPPORTED_PROTOCOL: info(
    400,
    'The URL has a scheme other than http: and https: (file:, data:, javascript:, ftp:, …).',
    'Send an http(s) URL.',
  ),
  SCRAPE_INVALID_REQUEST: info(
    400,
    'The request cannot be sent as given (a header value with a line break, …).',
    'Fix the `headers` named in the message.',
  ),
  SCRAPE_RESPONSE_TOO_LARGE: info(
    500,
    "The body or the headers went past `http.limits` (`maxBodyBytes`, `maxDecompressedBytes`, header size), or a page's scripts built a document longer than `maxBodyBytes`.",
    'Raise the limit under `http.limits` if the page is legitimate.',
  ),
  SCRAPE_DECOMPRESSION_BOMB: info(
    500,
    'The decoded body grew faster than `http.limits.maxCompressionRatio` allows.',
    'Raise `maxCompressionRatio` if the page is legitimate.',
  ),
  SCRAPE_DECODING_ERROR: info(
    500,
    'The body is not valid data of its `content-encoding` (corrupt gzip, brotli, …).',
    'Nothing on your side: the server sends a broken body.',
  ),
  SCRAPE_TOO_MANY_REDIRECTS: info(
    500,
    'More redirects than `http.limits.maxRedirects`.',
    'Scrape the final URL, or raise `maxRedirects`.',
  ),
  SCRAPE_REDIRECT_LOOP: info(500, 'A redirect led back to a URL of the same chain.', 'Nothing: the site loops.'),
  SCRAPE_SITE_ERROR: info(
    500,
    "The page failed to load in the browser (the message carries the browser's error).",
    'Check the URL in a browser; retry later.',
  ),
  SCRAPE_DOWNLOAD: info(
    500,
    'The browser was answered with a download instead of a page (fetched again over HTTP internally).',
    'Nothing: the page is fetched over HTTP instead.',
  ),
  SCRAPE_ENGINE_UNSUITABLE: info(
    400,
    'The request needs the browser (actions, screenshot, …) and `engine` is `http`.',
    "Drop the browser-only options, or use `engine: 'auto'` or `'browser'`.",
  ),
  SCRAPE_ACTION_ERROR: info(
    500,
    'An action failed on the page (the message names its index, type and selector).',
    'Fix the action: a selector that matches, a longer `wait`, valid JavaScript.',
  ),
  SCRAPE_UNSUPPORTED_FILE_ERROR: info(
    500,
    'The URL answered with binary content crawlkit does not convert (not HTML, text, JSON, XML, PDF or a document ' +
      'format), or an image without the `image` parser.',
    "Add `'image'` to `parsers` for an image; nothing to extract from other files.",
  ),
  SCRAPE_PDF_PARSE_ERROR: info(500, 'The PDF could not be parsed.', 'Use `parsers: []` to get the file as base64.'),
  SCRAPE_PDF_TOO_LARGE: info(
    500,
    'The PDF decompresses to more than 100 MiB before its first page can be read.',
    'Use `parsers: []` to get the file as base64.',
  ),
  SCRAPE_DOCUMENT_PARSE_ERROR: info(
    500,
    'The document (Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV) could not be read: damaged, encrypted, ' +
      'served as a type its bytes are not, or a format not converted (`.xls`; the message says which).',
    'Check the file opens in its application; save a legacy `.xls` as `.xlsx`, `.ods` or `.csv`.',
  ),
  SCRAPE_DOCUMENT_TOO_LARGE: info(
    500,
    'The document passes a cap: more than 10,000 zip entries, 200 MiB once inflated or 100 times its size (a zip ' +
      'bomb), 1,000,000 XML elements, 500,000 spreadsheet cells, or 2,000 EPUB spine entries (a looping spine).',
    'Nothing, for a hostile file; split a legitimate one.',
  ),
  SCRAPE_DOCUMENT_XML_ENTITIES: info(
    500,
    'An XML part of the document declares entities (`<!ENTITY`): entity expansion and external entities are refused.',
    'Nothing: office writers never emit them; re-save the file in its application.',
  ),
  SCRAPE_DOCUMENT_TIMEOUT: info(
    408,
    'Converting the document, or reading an image by OCR, took longer than the time left by `timeout`.',
    'Raise `timeout`.',
  ),
  SCRAPE_OCR_FAILED: info(
    500,
    'OCR could not read the image or PDF page (an image Tesseract cannot decode, or a page pdf.js cannot render).',
    'Use `parsers: [{ type: "pdf", mode: "fast" }]` for the text layer alone, or convert the image to PNG.',
  ),
  SCRAPE_BRANDING_NOT_SUPPORTED: info(
    500,
    'The `branding` format needs a browser and none could be started.',
    'Install Chromium or set `browser.executablePath` (the message says how).',
  ),
  SCRAPE_PAGE_TOO_COMPLEX: info(
    500,
    'Extracting the page needed more memory than `workers.maxMemoryMb`, or nesting too deep to build.',
    'Raise `workers.maxMemoryMb` if the page is legitimate.',
  ),
  SCRAPE_EXTRACTION_FAILED: info(
    500,
    'The worker thread extracting the page died, and again when the page was retried in a fresh one.',
    'Retry; report it if it repeats.',
  ),
  MARKDOWN_BUDGET_EXCEEDED: info(
    500,
    '`htmlToMarkdown` passed its `deadline` (a scrape never answers it: it falls back to plain text).',
    'Catch it when you call `htmlToMarkdown` with a `deadline`.',
  ),

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
  LLM_EXTRACTION_FAILED: info(
    500,
    "The model's answer stayed invalid for the `json` schema after the repair round.",
    'Simplify the schema or the prompt, or use a stronger model.',
  ),
  CRAWL_PROMPT_FAILED: info(
    400,
    'The crawl `prompt` could not be turned into valid crawler options.',
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
    'Another process held the database lock for longer than the busy timeout.',
    'Retry; keep one store per directory per host busy at a time.',
  ),
  STORE_CORRUPT: info(500, 'The database file is damaged or not a crawlkit store.', 'Use another `storeDir`.'),
  STORE_RECORD_INVALID: info(
    500,
    'A record in the store (a job request, a webhook delivery, a result) does not match its schema: damaged, or written by a newer crawlkit.',
    'Upgrade crawlkit if another version wrote the store; otherwise delete the job or use another `storeDir`.',
  ),
  STORE_SCHEMA_TOO_NEW: info(
    500,
    'The store was written by a newer crawlkit.',
    'Upgrade crawlkit, or use another `storeDir`.',
  ),
  STORE_OPEN_FAILED: info(500, 'The store could not be created or opened.', 'Check the directory and its permissions.'),
  STORE_IO: info(500, 'A read or write of the store failed (SQLite or Redis).', 'Check the disk or the Redis server.'),
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
  REDIS_UNAVAILABLE: info(500, 'Redis cannot be reached.', 'Check the URL and that the server is up.'),
} as const satisfies Record<string, ErrorCodeInfo> &
  Record<
    | FetchErrorCode
    | BrowserErrorCode
    | ActionErrorCode
    | StoreErrorCode
    | ExtractorErrorCode
    | MarkdownBudgetErrorCode
    | DocumentErrorCode,
    ErrorCodeInfo
  >;

/** Every error code of crawlkit's packages: the `code` of a v2 error response, a job error or a thrown error. */
export type CrawlkitErrorCode = keyof typeof ERROR_CODES;

/** Whether `code` is one of crawlkit's error codes. */
export function isErrorCode(code: unknown): code is CrawlkitErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** The HTTP status the v2 API answers an error code with; 500 for a code crawlkit does not know. */
export function httpStatusOf(code: string | undefined): number {
  return isErrorCode(code) ? ERROR_CODES[code].status : 500;
}
