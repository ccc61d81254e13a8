#!/usr/bin/env node
/**
 * The `crawlkit` command. Ctrl-C once stops cleanly (jobs stay resumable); twice exits at once.
 */
import module from 'node:module';

import { runtimeProblem } from './requirements.js';

// Before the commands load: an unsupported Node.js is told what to install, not a failure of whatever needed it.
const problem = runtimeProblem();
if (problem) {
  // `--log-format json` (serve, worker): one line of that log, read before the command line's parser can load.
  const args = process.argv.slice(2);
  const at = args.indexOf('--log-format');
  const json = args.includes('--log-format=json') || (at >= 0 && args[at + 1] === 'json');
  const line = {
    time: new Date().toISOString(),
    level: 'error',
    msg: problem,
    event: 'start-failed',
    code: 'NODE_UNSUPPORTED',
  };
  process.stderr.write(json ? `${JSON.stringify(line)}\n` : `${problem} (NODE_UNSUPPORTED)\n`);
  process.exit(1);
}
// A command is a new process each time: Node keeps the compiled code of its modules on disk (os.tmpdir(), or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), as TypeScript's tsc does. The command's own
// process only: the library never turns it on for its user's.
module.enableCompileCache?.();
const { main } = await import('./cli/program.js');
const { EXIT, exitCodeForSignal, ReaderGone } = await import('./cli/errors.js');

// SIGTERM (`kill`, `timeout`, a supervisor) stops as Ctrl-C does: the pages in hand stored, the manifest and the
// printed mark written, `crawlkit resume <id>` told; the exit code names the signal (130, 143). Not SIGHUP: `nohup`
// sets it ignored, and a handler would undo that.
const controller = new AbortController();
let interrupts = 0;
let stoppedBy: NodeJS.Signals | undefined;
const stop = (signal: NodeJS.Signals) => {
  interrupts++;
  if (interrupts > 1) process.exit(exitCodeForSignal(signal));
  stoppedBy = signal;
  controller.abort();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

// A reader that went away (`crawlkit crawl … | head`) stops the command as one Ctrl-C does, the job left resumable,
// instead of an unhandled EPIPE with its stack trace; what is left to print goes nowhere. Its exit code is SIGPIPE's
// (141), as `yes | head -1` reports under `pipefail`, not Ctrl-C's.
process.stdout.on('error', () => {
  if (controller.signal.aborted) return;
  stoppedBy = 'SIGPIPE';
  controller.abort(new ReaderGone());
});

const ended = await main(process.argv.slice(2), process, controller.signal);
const code = ended === EXIT.interrupted && stoppedBy ? exitCodeForSignal(stoppedBy) : ended;
// Leave once the output is flushed, even if a socket or timer of a library still holds the event loop.
process.stdout.write('', () => process.exit(code));
