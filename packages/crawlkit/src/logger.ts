import { objectWith } from '@crawlkit/options';
import { createDebug } from 'obug';

/**
 * A line's fields, when a logger method's last value is a plain object (`{ method, path, status }`): what a
 * structured logger (winston, `crawlkit serve --log-format json`) writes beside the message. The message says the same
 * in words, so the debug logger drops them.
 */
export function splitFields(values: unknown[]): { rest: unknown[]; fields: Record<string, unknown> | undefined } {
  const last = values.at(-1);
  if (last !== null && typeof last === 'object' && Object.getPrototypeOf(last) === Object.prototype) {
    return { rest: values.slice(0, -1), fields: last as Record<string, unknown> };
  }
  return { rest: values, fields: undefined };
}

/**
 * Where crawlkit's diagnostics go. pino, winston, bunyan and `console` loggers fit as they are (each method takes a
 * message first, then any values). A line with fields (a server's access line, a job's) gives them as a plain object
 * last (`splitFields`): winston merges it into the entry. crawlkit is quiet by default: see {@link createDebugLogger}.
 */
export interface Logger {
  debug(message: string, ...values: unknown[]): void;
  info(message: string, ...values: unknown[]): void;
  warn(message: string, ...values: unknown[]): void;
  error(message: string, ...values: unknown[]): void;
}

/** The options schema of a `logger` option (the engine's, the server's): an object with the four methods. */
export const loggerSchema = objectWith<Logger>(
  'a logger with debug, info, warn and error methods',
  'debug()',
  'info()',
  'warn()',
  'error()',
);

/** Every crawlkit debug namespace starts with this: `DEBUG=crawlkit:*` shows them all. */
export const DEBUG_NAMESPACE = 'crawlkit';

/**
 * A logger on the `debug` convention (through obug): silent unless the `DEBUG` environment variable names its
 * namespace, e.g. `DEBUG=crawlkit:*` or `DEBUG=crawlkit:jobs`. Each level is a sub-namespace
 * (`crawlkit:jobs:warn`), so `DEBUG=crawlkit:*:error` shows only errors. A line's fields (`splitFields`) are dropped.
 * @param scope The part after `crawlkit:`, one per package or subsystem (`engine`, `jobs`, `webhooks`, `fetcher`...).
 */
export function createDebugLogger(scope: string): Logger {
  const base = `${DEBUG_NAMESPACE}:${scope}`;
  const debug = createDebug(base);
  const info = createDebug(`${base}:info`);
  const warn = createDebug(`${base}:warn`);
  const error = createDebug(`${base}:error`);
  return {
    debug: (message, ...values) => debug(message, ...splitFields(values).rest),
    info: (message, ...values) => info(message, ...splitFields(values).rest),
    warn: (message, ...values) => warn(message, ...splitFields(values).rest),
    error: (message, ...values) => error(message, ...splitFields(values).rest),
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/**
 * The logger of one subsystem: the user's (its messages prefixed with `[scope]`) or, by default, the debug logger of
 * `crawlkit:<scope>`.
 */
export function scopedLogger(logger: Logger | undefined, scope: string): Logger {
  if (!logger) return createDebugLogger(scope);
  return {
    debug: (message, ...values) => logger.debug(`[${scope}] ${message}`, ...values),
    info: (message, ...values) => logger.info(`[${scope}] ${message}`, ...values),
    warn: (message, ...values) => logger.warn(`[${scope}] ${message}`, ...values),
    error: (message, ...values) => logger.error(`[${scope}] ${message}`, ...values),
  };
}
