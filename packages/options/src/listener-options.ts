/** The browser origins a listener answers (see `ListenerOptions.cors`). */
export type CorsSetting = 'loopback' | '*' | false | readonly string[];

/**
 * The defaults of a listener of the v2 API (`@crawlkit/server`'s schema, which `@crawlkit/mcp`'s HTTP transport reads
 * too), in one place: the server takes them and the CLI's `serve --help` says them.
 */
export const LISTENER_DEFAULTS = {
  port: 3002,
  host: '127.0.0.1',
  bodyLimit: 10 * 1024 * 1024,
  queueLimit: 1024,
  bodyTimeoutMs: 30_000,
  closeTimeoutMs: 30_000,
  /** The room `/ready` requires of a store, in MiB (a few hundred of the largest pages; an eighth of it when less). */
  readyMinFreeMb: 64,
} as const;

/**
 * Where a listener of the v2 API (`@crawlkit/server`'s `startServer`, `@crawlkit/mcp`'s HTTP transport) listens, who
 * may call it and within which limits. One home for these settings: the CLI's `serve` and `mcp` pass them through.
 */
export interface ListenerOptions {
  /**
   * TCP port; 0 picks a free one (read it from `server.url`).
   * @default 3002
   */
  port?: number;
  /**
   * Interface to listen on. Anything but a loopback address (`127.0.0.1`, `::1`, `localhost`) needs `apiKeys`.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * Keys accepted as `Authorization: Bearer <key>` (and, for the WebSocket, in `Sec-WebSocket-Protocol`). Empty:
   * every request is accepted, which is only allowed on a loopback `host`.
   * @default [] (keyless)
   */
  apiKeys?: readonly string[];
  /**
   * Where `apiKeys` came from, in words a request with a key not among them is told (after upstream's "Unauthorized:
   * Invalid token"), so that its sender knows where to look for the right one: `crawlkit serve` names the flag, the
   * variable or the file its keys came from. Never a key's value.
   * @default 'the `apiKeys` option'
   */
  apiKeysSource?: string;
  /**
   * With several `apiKeys`, whether they share their jobs. Unset, each key is a tenant: a crawl or batch belongs to
   * the key that started it, and another key reading, cancelling or listing it gets `404 Job not found` (kept
   * scrapes too). `true` makes every key see every job, as one team's keys do upstream.
   * @default false
   */
  keysShareJobs?: boolean;
  /**
   * Largest request body in bytes; a larger one is answered 413 `PAYLOAD_TOO_LARGE`.
   * @default 10485760 (10 MiB: a batch of about 50,000 URLs)
   */
  bodyLimit?: number;
  /**
   * Which browser origins may call the API (CORS): `'loopback'` (pages served from `localhost`, `127.0.0.1` or
   * `[::1]`, on any port), `'*'` (any), a list of origins (`https://app.example`), or `false` (none). A request
   * carrying an `Origin` the setting does not allow is answered 403 `ORIGIN_NOT_ALLOWED`, so that a web page cannot
   * drive the server from a visitor's browser; clients outside browsers send no `Origin`.
   * @default 'loopback'
   */
  cors?: CorsSetting;
  /**
   * Scrape, map, search, parse and params-preview requests in progress at once (running or waiting for an engine
   * slot), per API key when each key is a tenant (else the server's); one more is answered 429 `QUEUE_FULL`, and
   * another key's requests are admitted. Crawl and batch starts are not counted: their pages wait in the store.
   * @default 1024
   */
  queueLimit?: number;
  /**
   * Credits each API key may spend when each key is a tenant (else the server), reported by
   * `GET /v2/team/credit-usage`; once the key's are spent, its scrape, crawl, batch, map and search are answered 402
   * `INSUFFICIENT_CREDITS`, and a crawl's `limit` is lowered to what is left; the other keys spend theirs.
   * @default undefined (no limit)
   */
  creditLimit?: number;
}
