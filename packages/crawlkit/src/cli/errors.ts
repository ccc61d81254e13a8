import { constants } from 'node:os';

import { httpStatusOf, type CrawlkitErrorCode } from '../error-codes.js';
import { CrawlkitError, toErrorResponse } from '../errors.js';
import type { Logger } from '../logger.js';
import { withFlags } from './option-flags.js';

/** Exit codes of the `crawlkit` command. */
export const EXIT = {
  ok: 0,
  /** The work failed (a page, a job, the store). */
  failure: 1,
  /** The input was wrong: a flag, an argument, a v2 body the API refused. */
  badInput: 2,
  /** `--strict`: the work is done, but some of its pages (a crawl's, a batch's, several files') failed. */
  somePagesFailed: 3,
  /**
   * Interrupted by Ctrl-C (SIGINT); what was scraped is kept. SIGTERM's is `exitCodeForSignal('SIGTERM')`, 143; a
   * reader gone (`| head`) SIGPIPE's, 141.
   */
  interrupted: 130,
} as const;

/**
 * Why the command was stopped when the reader of its output went away (`crawlkit crawl … | head -1`): the abort's
 * reason, so that what is said on stderr names it. Its exit code is SIGPIPE's (141), as a tool the signal ended.
 */
export class ReaderGone extends DOMException {
  constructor() {
    super('The reader of the output went away.', 'AbortError');
  }
}

/**
 * The exit code of a command that a signal stopped cleanly: 128 + the signal's number, as a shell reports a process
 * the signal ended (Ctrl-C's SIGINT 130, `kill`'s and `timeout`'s SIGTERM 143), so that a script can tell them apart.
 */
export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 2);
}

/**
 * A command that cannot go on: a command-line mistake (`CLI_USAGE`, exit code 2), or a failure it names (its `code`,
 * `exitCode` 1; `UNKNOWN_ERROR` when it names none), reported on stderr. `told`: already written in the command's
 * own log form (serve's JSON lines), so that `main` writes nothing more.
 */
export class CliError extends CrawlkitError {
  readonly exitCode: number;
  readonly told: boolean;

  constructor(
    message: string,
    options: { cause?: unknown; exitCode?: number; code?: CrawlkitErrorCode; told?: boolean } = {},
  ) {
    const exitCode = options.exitCode ?? EXIT.badInput;
    super(options.code ?? (exitCode === EXIT.badInput ? 'CLI_USAGE' : 'UNKNOWN_ERROR'), message, {
      cause: options.cause,
    });
    this.name = 'CliError';
    this.exitCode = exitCode;
    this.told = options.told ?? false;
  }
}

/**
 * An `--out` file or directory that could not be written once the command ran (`OUTPUT_UNWRITABLE`, exit 1): `what`
 * says which, the file system's message follows it.
 */
export function outputUnwritable(what: string, error: unknown): CliError {
  return new CliError(`${what}: ${(error as Error).message}`, {
    cause: error,
    code: 'OUTPUT_UNWRITABLE',
    exitCode: EXIT.failure,
  });
}

/**
 * The exit code for a v2 error response: bad input (a code answered with HTTP 400) is 2, anything else 1. An
 * option the engine refuses (`INVALID_OPTION`) is bad input too: the command line's flags, environment and settings
 * file are where its options come from.
 */
export function exitCodeFor(code: string | undefined): number {
  return httpStatusOf(code) === 400 || code === 'INVALID_OPTION' ? EXIT.badInput : EXIT.failure;
}

/**
 * Why a server command could not start, as a `CliError`: a bad flag read as the engine is made (`--engine`,
 * `--url-policy`) and a bad option are bad input told as themselves (exit 2); anything else is a failure told after
 * `what` ("Cannot serve on 127.0.0.1:3002"): a port in use, a port this user may not bind, or an address the machine
 * does not have is `LISTEN_FAILED` with what to give instead.
 */
export function startFailure(error: unknown, what: string): CliError {
  if (error instanceof CliError) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === 'INVALID_OPTION') return new CliError(withFlags(String(message)), { cause: error });
  const fix =
    code === 'EADDRINUSE'
      ? ': another process listens there. Stop it, or give another --port (0 picks a free one)'
      : code === 'EACCES'
        ? ': this user may not listen there (ports under 1024 need privileges). Give another --port'
        : code === 'EADDRNOTAVAIL'
          ? ": the address is not one of this machine's. Give a --host it has (127.0.0.1; 0.0.0.0 for all of them)"
          : '';
  return new CliError(`${what}: ${String(message)}${fix}`, {
    cause: error,
    exitCode: EXIT.failure,
    ...(fix ? { code: 'LISTEN_FAILED' as const } : {}),
  });
}

/**
 * `error` written as one error line of `log` (`event`, its code), as the `CliError` `main` exits by, so that a
 * supervisor reading a long-running command's JSON lines (`serve`, `worker`) gets its failure as one of them.
 */
export function toldInLog(log: Logger, error: unknown, event: string): CliError {
  const cli = error instanceof CliError ? error : undefined;
  const response = cli ? { code: cli.code, error: cli.message } : toErrorResponse(error);
  const code = response.code ?? 'UNKNOWN_ERROR';
  const message = cli ? cli.message : withFlags(response.error);
  log.error(message, { event, code });
  const exitCode = cli?.exitCode ?? exitCodeFor(code);
  return new CliError(message, { cause: error, code, exitCode, told: true });
}
