import { isIP } from 'node:net';

import { createDebugLogger, type Crawlkit, type Logger } from 'crawlkit';

import { ServerError } from './errors.js';

/** Settings of `startServer`. Only `crawlkit` is required. */
export interface ServerOptions {
  /** The engine that answers every request. The server never closes it: close it after `server.close()`. */
  crawlkit: Crawlkit;
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
   * Largest request body in bytes; a larger one is answered 413 `PAYLOAD_TOO_LARGE`.
   * @default 10485760 (10 MiB: a batch of about 50,000 URLs)
   */
  bodyLimit?: number;
  /**
   * Largest file `POST /v2/parse` takes, in bytes; a larger one is answered 413 `PAYLOAD_TOO_LARGE`.
   * @default 52428800 (50 MiB, upstream's limit)
   */
  parseFileLimit?: number;
  /**
   * Scrape, map and params-preview requests in progress at once (running or waiting for an engine slot); one more
   * is answered 429 `QUEUE_FULL`. Crawl and batch starts are not counted: their pages wait in the store.
   * @default 1024
   */
  queueLimit?: number;
  /**
   * Credits the server may spend (reported by `GET /v2/team/credit-usage`); once spent, scrape, crawl, batch and map
   * are answered 402 `INSUFFICIENT_CREDITS`, and a crawl's `limit` is lowered to what is left.
   * @default undefined (no limit)
   */
  creditLimit?: number;
  /**
   * On `close()`, how long requests in progress may take to finish before they are aborted, in milliseconds.
   * @default 30000
   */
  closeTimeoutMs?: number;
  /**
   * Where the server's diagnostics go (listening, WebSocket sessions, internal errors).
   * @default a `debug` logger, silent unless `DEBUG=crawlkit:server*`
   */
  logger?: Logger;
}

export interface ResolvedServerOptions {
  crawlkit: Crawlkit;
  port: number;
  host: string;
  apiKeys: readonly string[];
  bodyLimit: number;
  parseFileLimit: number;
  queueLimit: number;
  creditLimit: number | undefined;
  closeTimeoutMs: number;
  logger: Logger;
}

function invalid(message: string): ServerError {
  return new ServerError('SERVER_INVALID_OPTION', message);
}

function integer(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(`Expected \`${name}\` to be an integer from ${min} to ${max}, got \`${String(value)}\``);
  }
  return value;
}

/** Whether `host` is a loopback interface: `localhost`, 127.0.0.0/8, `::1` (or 127/8 mapped into IPv6). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare) || /^(0+:){7}0*1$/.test(bare);
  return false;
}

export function resolveServerOptions(options: ServerOptions): ResolvedServerOptions {
  if (!options.crawlkit) throw invalid('`crawlkit` is required: pass the engine the server answers with');
  const host = options.host ?? '127.0.0.1';
  const apiKeys = [...(options.apiKeys ?? [])];
  for (const key of apiKeys) {
    if (typeof key !== 'string' || key.trim() === '' || /\s/.test(key)) {
      throw invalid('Every API key must be a non-empty string without spaces');
    }
  }
  if (apiKeys.length === 0 && !isLoopbackHost(host)) {
    throw invalid(
      `Refusing to listen on ${host} without an API key: anyone who reaches it could use the server. ` +
        'Give at least one key (--api-key, CRAWLKIT_API_KEY) or listen on 127.0.0.1.',
    );
  }
  const creditLimit = options.creditLimit;
  if (creditLimit !== undefined && !(Number.isInteger(creditLimit) && creditLimit >= 0)) {
    throw invalid(`Expected \`creditLimit\` to be a non-negative integer, got \`${String(creditLimit)}\``);
  }
  return {
    crawlkit: options.crawlkit,
    port: integer('port', options.port, 3002, 0, 65_535),
    host,
    apiKeys,
    bodyLimit: integer('bodyLimit', options.bodyLimit, 10 * 1024 * 1024, 1, 2 ** 31 - 1),
    parseFileLimit: integer('parseFileLimit', options.parseFileLimit, 50 * 1024 * 1024, 1, 2 ** 31 - 1),
    queueLimit: integer('queueLimit', options.queueLimit, 1024, 1, 2 ** 31 - 1),
    creditLimit,
    closeTimeoutMs: integer('closeTimeoutMs', options.closeTimeoutMs, 30_000, 0, 2 ** 31 - 1),
    logger: options.logger ?? createDebugLogger('server'),
  };
}
