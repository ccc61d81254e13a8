/**
 * The one form of the line a failing command ends with on stderr: `crawlkit: <message> (<CODE>)`, the message being
 * the one a `--json` answer's `error` carries, so that a script reads the code at the end of the line whoever found
 * the failure (commander's usage mistakes, a `CliError`, a v2 refusal, a thrown `CrawlkitError`). The code is left
 * out only when there is none, when the message already ends in it, or for a failure without a code of its own
 * (`UNKNOWN_ERROR` of a `CliError`: `bare`).
 */
export function errorLine(message: string, code: string | undefined, { bare = false } = {}): string {
  const tail = code ? ` (${code})` : '';
  return `crawlkit: ${bare || message.endsWith(tail) ? message : message + tail}\n`;
}

/**
 * A usage mistake commander found (unknown option or command, missing argument, bad choice, too many arguments) in
 * the words of the `--json` answer: commander's message without its `error: ` and line breaks, and where help is;
 * no command at all, after the help commander printed.
 */
export function commanderUsage(error: { code: string; message: string }): string {
  // No command at all: commander has printed the help on stderr, and its message is "(outputHelp)".
  if (error.code === 'commander.help') return 'no command given: choose one of the commands listed above';
  return `${error.message.replace(/^error: /, '').replace(/\n/g, ' ')} (run with --help for usage)`;
}
