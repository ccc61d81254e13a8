import { objectWith } from '@crawlkit/options';
import { createDebug } from 'obug';

/**
 * Where crawlkit's diagnostics go. pino, winston, bunyan and `console` loggers fit as they are (each method takes a
 * message first, then any values). crawlkit is quiet by default: see {@link createDebugLogger}.
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
  'debug',
  'info',
  'warn',
  'error',
);

/** Every crawlkit debug namespace starts with this: `DEBUG=crawlkit:*` shows them all. */
export const DEBUG_NAMESPACE = 'crawlkit';

/**
 * A logger on the `debug` convention (through obug): silent unless the `DEBUG` environment variable names its
 * namespace, e.g. `DEBUG=crawlkit:*` or `DEBUG=crawlkit:jobs`. Each level is a sub-namespace
 * (`crawlkit:jobs:warn`), so `DEBUG=crawlkit:*:error` shows only errors.
 * @param scope The part after `crawlkit:`, one per package or subsystem (`engine`, `jobs`, `webhooks`, `fetcher`...).
 */
export function createDebugLogger(scope: string): Logger {
  const base = `${DEBUG_NAMESPACE}:${scope}`;
  const debug = createDebug(base);
  const info = createDebug(`${base}:info`);
  const warn = createDebug(`${base}:warn`);
  const error = createDebug(`${base}:error`);
  return {
    debug: (message, ...values) => debug(message, ...values),
    info: (message, ...values) => info(message, ...values),
    warn: (message, ...values) => warn(message, ...values),
    error: (message, ...values) => error(message, ...values),
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
