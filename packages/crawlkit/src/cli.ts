#!/usr/bin/env node
/**
 * The `crawlkit` command. Ctrl-C once stops cleanly (jobs stay resumable); twice exits at once.
 */
import { runtimeProblem } from './requirements.js';

// Before the commands load: an unsupported Node.js is told what to install, not a failure of whatever needed it.
const problem = runtimeProblem();
if (problem) {
  process.stderr.write(`${problem} (NODE_UNSUPPORTED)\n`);
  process.exit(1);
}
const { main } = await import('./cli/program.js');

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts++;
  if (interrupts > 1) process.exit(130);
  controller.abort();
});

const code = await main(process.argv.slice(2), process, controller.signal);
// Leave once the output is flushed, even if a socket or timer of a library still holds the event loop.
process.stdout.write('', () => process.exit(code));
