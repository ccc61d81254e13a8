/**
 * Every code of the `warning` event (`ck.on('warning', ({ code, message }) => …)`), with when it is told: the one
 * list of them. The README's table is checked against it (`test/warning-codes.test.ts`), and the compiler refuses a
 * warning told with a code that is not in it.
 */
export const WARNING_CODES = {
  STORE_FILE_EMPTY:
    'The SQLite store file existed with 0 bytes (truncated?) and became a new, empty store: what it held is gone.',
  STORE_MIGRATED:
    'The SQLite store file had an older schema and was migrated (an earlier crawlkit now refuses it): a copy of it as ' +
    'it was is kept beside it, named for its schema (`crawlkit.db.schema-12.bak`), the way back of a roll-back.',
  STORE_PAGES_ONLY:
    'The `store` given keeps pages only: crawls, batches and change-tracking history are kept in memory and lost ' +
    'when the process ends.',
  STORE_CLOSE_FAILED: "A given store's own `close()` threw, or had not settled 2 s into the engine's `close()`.",
  CACHE_WRITE_FAILED:
    'A scraped page could not be written to the page cache, or its write had not settled 2 s into a lookup of the ' +
    'same page or `close()`: the scrape answered, and the next one fetches the page again.',
  CREDITS_NOT_SETTLED:
    'The credits reserved for a call under a credit limit could not be settled to what it cost (the store busy or ' +
    'failing): the call answered, and the reservation stays counted (the limit may be reached early, never passed).',
  RESULT_NOT_KEPT:
    'A scrape kept for `GET /v2/scrape/:id` (`keepResult`, what `serve` asks) could not be written to the store (its ' +
    'lock held by another process, a full disk): the scrape answered its page, which that route will not find.',
  REDIRECT_WITHOUT_LOCATION:
    'A page answered a redirect (301, 302, 303, 307, 308) without saying where to (no `Location` header, or one ' +
    "that is no URL): the page is kept as the server's body, with the same sentence in its document's `warning`.",
  SIGN_IN_REDIRECT:
    'A page redirected to a sign-in page that names it as the way back (`?next=`, `?service=`): the document is the ' +
    "sign-in page, with the same sentence in its `warning`; send the session in the request's `headers`.",
  REPLAY_TRUNCATED: 'A replay archive ends in a cut record: the records before it are replayed.',
  REPLAY_DAMAGED: 'A gzip replay archive has damaged records: they are skipped, the records after them replayed.',
  TENANT_USAGE_DROPPED:
    'More than 10,000 tenants used the engine: the least recently active ones count their usage from 0 again (told ' +
    'once).',
  SCHEDULE_UNREADABLE: 'A stored schedule cannot be read and is skipped (told once a schedule); the others fire.',
  WEBHOOK_DELIVERY_FAILED: "A job's webhook event was given up after its attempts (told once a minute a job at most).",
  WEBHOOK_EVENTS_UNREADABLE:
    'Webhook events in the store were written by a newer crawlkit, or damaged: they stay pending, unsent (told once ' +
    'a store).',
  WEBHOOK_EVENTS_DROPPED: 'At `close()`, webhook events still pending in a store that keeps nothing after it (memory).',
  WEBHOOK_EVENTS_LEFT:
    'At `close()`, webhook events of the jobs this engine was sending still pending in a store on disk (a receiver ' +
    'down or failing): the next engine on the store sends them.',
  WORKER_SETTINGS_DIFFER:
    "A distributed worker's settings (URL policy, search index, version, task lock) differ from other live workers' " +
    '(one warning a setting).',
  LEAD_RELEASE_FAILED:
    "A distributed lead (the webhook sender's) could not be let go at `close()`: another process takes it once its " +
    'lock lapses.',
} as const satisfies Record<string, string>;

/** The code of a `warning` event. */
export type WarningCode = keyof typeof WARNING_CODES;

/** Tells a warning: the engine's `warning` event and a warning line. */
export type TellWarning = (code: WarningCode, message: string) => void;
