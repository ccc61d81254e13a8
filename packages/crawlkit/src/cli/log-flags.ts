/**
 * The flags that shape what `crawlkit serve` and `crawlkit worker` write on stderr while they run: `--quiet` (every
 * command's, with one help) and `--log-format` (theirs). Part of the program's definition (loaded at every start): it
 * imports commander only.
 */
import { Option, type Command } from 'commander';

/** The forms of the lines of `serve` and `worker` (`--log-format`). */
export const LOG_FORMATS = ['text', 'json'] as const;

export type LogFormat = (typeof LOG_FORMATS)[number];

/** The form of the lines of `serve` and `worker` when `--log-format` is not given. */
export const DEFAULT_LOG_FORMAT: LogFormat = 'text';

/** The one help of `-q, --quiet`, for every command. */
export const QUIET_HELP =
  "no progress bar and no notes on stderr (but a started job's id); serve and worker: warnings and errors only";

/** Adds `-q, --quiet` (see `QUIET_HELP`). */
export function addQuietFlag(command: Command): Command {
  return command.option('-q, --quiet', QUIET_HELP);
}

/**
 * Adds `--log-format <format>` to `serve` and `worker`: `text` (`<ISO time> <level> <message>`) or `json` (one
 * object a line); commander checks the value (a bad one is a usage error, exit 2) and gives the default.
 */
export function addLogFormatFlag(command: Command): Command {
  return command.addOption(
    new Option(
      '--log-format <format>',
      'the lines on stderr: text ("<ISO time> <level> <message>") or json (one {"time","level","msg",...} a line)',
    )
      .choices(LOG_FORMATS)
      .default(DEFAULT_LOG_FORMAT),
  );
}
