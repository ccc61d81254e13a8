import { format } from 'node:util';

import { createDebugLogger, splitFields, type Logger } from '../logger.js';
import { DEFAULT_LOG_FORMAT, type LogFormat } from './log-flags.js';

type Level = 'debug' | 'info' | 'warn' | 'error';

/** Settings of `runLogger`. */
export interface RunLogOptions {
  /**
   * `text`: `2026-12-03T07:01:02.345Z info POST /v2/scrape 200 41 ms 127.0.0.1`; `json`: one
   * `{"time","level","msg",...fields}` object a line.
   * @default 'text'
   */
  format?: LogFormat;
  /**
   * Warnings and errors only (`--quiet`).
   * @default false
   */
  quiet?: boolean;
  /**
   * `debug` lines go to the `debug` namespace `crawlkit:<scope>` (shown by `DEBUG=crawlkit:<scope>`), not to the
   * stream: a balancer's successful probes, for instance.
   * @default 'cli'
   */
  debugScope?: string;
}

/**
 * The logger of `crawlkit serve` and `crawlkit worker`: one line per event on `stream` (their stderr), each with its
 * time (ISO 8601, UTC) and level. A message's line breaks become spaces: one event, one line. The library never makes
 * one: an app's `startServer()` or `Crawlkit` logs only through the logger it passes.
 */
export function runLogger(stream: NodeJS.WritableStream, options: RunLogOptions = {}): Logger {
  const json = (options.format ?? DEFAULT_LOG_FORMAT) === 'json';
  const debug = createDebugLogger(options.debugScope ?? 'cli');
  const write =
    (level: Level) =>
    (message: string, ...values: unknown[]): void => {
      if (level === 'info' && options.quiet) return;
      const { rest, fields = {} } = splitFields(values);
      const msg = (rest.length ? format(message, ...rest) : message).replace(/[\r\n]+/g, ' ');
      const time = new Date().toISOString();
      if (json) {
        const { time: _t, level: _l, msg: _m, ...own } = fields;
        stream.write(`${JSON.stringify({ time, level, msg, ...own })}\n`);
      } else {
        stream.write(`${time} ${level} ${msg}\n`);
      }
    };
  return {
    debug: (message, ...values) => debug.debug(message, ...values),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
  };
}
