import { isIP } from 'node:net';

import { createDebugLogger, loggerSchema, type Crawlkit, type Logger } from 'crawlkit';

import {
  InvalidOptionError,
  LISTENER_DEFAULTS,
  objectWith,
  parseOptions,
  type CorsSetting,
  type ListenerOptions,
} from '@crawlkit/options';
import { z } from 'zod';

/** Settings of `startServer`. Only `crawlkit` is required. */
export interface ServerOptions extends ListenerOptions {
  /** The engine that answers every request. The server never closes it: close it after `server.close()`. */
  crawlkit: Crawlkit;
  /**
   * Time a request body may take to arrive, from the request's headers on, in milliseconds; past it the server
   * answers 408 `REQUEST_TIMEOUT` and closes the connection (a client trickling a body cannot hold a socket).
   * The request's headers get the same time (at most Node's 60 s), so a client trickling them is closed too.
   * Requests that fail auth are answered 401 and closed at once, their body unread.
   * @default 30000
   */
  bodyTimeoutMs?: number;
  /**
   * Largest file `POST /v2/parse` takes, in bytes; a larger one is answered 413 `PAYLOAD_TOO_LARGE` before it is
   * read whole. Unset, the engine's own `parseFileLimit` (`new Crawlkit({ parseFileLimit })`, what `ck.parse()` takes):
   * raising the engine's raises the server's. Set it to hold uploads below the engine's limit.
   * @default the engine's `parseFileLimit` (52428800, `PARSE_FILE_LIMIT`: 50 MiB, upstream's limit, unless raised)
   */
  parseFileLimit?: number;
  /**
   * On `close()`, how long requests in progress may take to finish before they are aborted, in milliseconds.
   * @default 30000
   */
  closeTimeoutMs?: number;
  /**
   * The address clients reach the server at, when it is not the one their requests carry in `Host`: behind a reverse
   * proxy that rewrites `Host` or serves under a path, e.g. `https://api.example.com/crawlkit`. The job URLs the
   * server answers (a crawl's `url`, a status page's `next`, which the SDKs follow) are built on it, and its path is
   * accepted before every route too, for a proxy that forwards `/crawlkit/v2/...` as it is.
   * @default undefined (`<protocol>://<Host>` of each request, as upstream; see `trustProxy`)
   */
  publicUrl?: string;
  /**
   * Whose `X-Forwarded-Proto` and `X-Forwarded-Host` the job URLs believe: `true` (every peer, when only the proxy can
   * reach the server), or the proxies' addresses and ranges (`['loopback']`, `['10.0.0.0/8']`; also `linklocal`,
   * `uniquelocal`). Unset, the headers are ignored: a client cannot choose the address it is answered.
   * @default false
   */
  trustProxy?: boolean | readonly string[];
  /**
   * Room the store must have left for `GET /ready` to answer ready, in MiB: free space on the disk of the SQLite file,
   * or Redis's `maxmemory` less its `used_memory` (no check when Redis has no `maxmemory`, or for the memory store).
   * Below it `/ready` answers 503 `STORE_FULL`, so that a load balancer stops sending work every page of which would
   * fail to be stored, and a new crawl or batch (v2 and v1) is refused with the same answer: the probe and the
   * admission read one rule. 0 turns the check off.
   * @default 64, or an eighth of the store's whole room when that is less (a 20 MiB disk, a 32 MiB `maxmemory`: a
   * small store is not full when new)
   */
  readyMinFreeMb?: number;
  /**
   * Where the server's lines go: one per answered request (`info`; a 5xx `error` with its v2 code, a 503 `warn`, a
   * successful probe `debug`), internal errors, WebSocket sessions; each with its fields as a plain object last. The
   * library writes nothing unless given one (`crawlkit serve` gives its stderr logger).
   * @default a `debug` logger, silent unless `DEBUG=crawlkit:server*`
   */
  logger?: Logger;
}

export type { CorsSetting };

export interface ResolvedServerOptions {
  crawlkit: Crawlkit;
  port: number;
  host: string;
  apiKeys: readonly string[];
  apiKeysSource: string;
  keysShareJobs: boolean;
  bodyLimit: number;
  bodyTimeoutMs: number;
  cors: CorsSetting;
  parseFileLimit: number;
  queueLimit: number;
  creditLimit: number | undefined;
  closeTimeoutMs: number;
  publicUrl: string | undefined;
  trustProxy: boolean | string[];
  readyMinFreeMb: number | undefined;
  logger: Logger;
}

/** Whether `host` is a loopback interface: `localhost`, 127.0.0.0/8, `::1` (or 127/8 mapped into IPv6). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare) || /^(0+:){7}0*1$/.test(bare);
  return false;
}

const MAX = 2 ** 31 - 1;
const int = (min: number, max = MAX) => z.number().int().min(min).max(max);

const origin = z.string().refine(
  (value) => {
    try {
      return new URL(value).origin === value;
    } catch {
      return false;
    }
  },
  { error: 'Expected an origin like https://app.example (scheme, host, port)' },
);

/** The one check of `ServerOptions`, strict, with each default in one place. */
const serverOptionsSchema = z.strictObject({
  crawlkit: objectWith<Crawlkit>('the Crawlkit engine the server answers with', 'scrape()', 'crawl()'),
  port: int(0, 65_535).default(LISTENER_DEFAULTS.port),
  host: z.string().min(1).default(LISTENER_DEFAULTS.host),
  apiKeys: z
    .array(z.string().regex(/^\S+$/, { error: 'Expected a non-empty key without spaces' }))
    .readonly()
    .default([]),
  apiKeysSource: z.string().min(1).default('the `apiKeys` option'),
  keysShareJobs: z.boolean().default(false),
  bodyLimit: int(1).default(LISTENER_DEFAULTS.bodyLimit),
  bodyTimeoutMs: int(1).default(LISTENER_DEFAULTS.bodyTimeoutMs),
  cors: z
    .union([z.literal('loopback'), z.literal('*'), z.literal(false), z.array(origin).readonly()], {
      error: "Expected 'loopback', '*', false or a list of origins",
    })
    .default('loopback'),
  parseFileLimit: int(1).optional(),
  queueLimit: int(1).default(LISTENER_DEFAULTS.queueLimit),
  creditLimit: int(0).optional(),
  closeTimeoutMs: int(0).default(LISTENER_DEFAULTS.closeTimeoutMs),
  readyMinFreeMb: int(0).optional(),
  publicUrl: z
    .string()
    .refine(
      (value) => {
        try {
          const url = new URL(value);
          return /^https?:$/.test(url.protocol) && !url.search && !url.hash && !url.username && !url.password;
        } catch {
          return false;
        }
      },
      { error: 'Expected the http(s) URL clients reach the server at, like https://api.example.com/crawlkit' },
    )
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  trustProxy: z
    .union([z.boolean(), z.array(z.string().min(1)).readonly()], {
      error: "Expected true, false or a list of the proxies' addresses or ranges (loopback, 10.0.0.0/8)",
    })
    .default(false),
  logger: loggerSchema.optional(),
});

/**
 * Checks and defaults the options of `startServer`.
 * @throws {InvalidOptionError} (`INVALID_OPTION`) naming every bad option, or a non-loopback `host` without keys.
 */
export function resolveServerOptions(input: ServerOptions): ResolvedServerOptions {
  const options = parseOptions(serverOptionsSchema, input, 'startServer()');
  if (options.apiKeys.length === 0 && !isLoopbackHost(options.host)) {
    throw new InvalidOptionError(
      `Invalid options of startServer(): refusing to listen on ${options.host} without an API key: anyone who ` +
        'reaches it could use the server. Give at least one key (--api-key, CRAWLKIT_API_KEY) or listen on 127.0.0.1.',
    );
  }
  const { logger, creditLimit, publicUrl, trustProxy, parseFileLimit, readyMinFreeMb, ...rest } = options;
  return {
    ...rest,
    readyMinFreeMb,
    parseFileLimit: parseFileLimit ?? options.crawlkit.parseFileLimit,
    creditLimit,
    publicUrl,
    trustProxy: typeof trustProxy === 'boolean' ? trustProxy : [...trustProxy],
    logger: logger ?? createDebugLogger('server'),
  };
}
