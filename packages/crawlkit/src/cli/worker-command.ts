// The definition of `crawlkit worker`: its flags, and an action that loads the worker (`worker.ts`) when it runs.
import { Option, type Command } from 'commander';

import type { CliIo } from './context.js';
import { addEngineFlags } from './engine-flags.js';
import { examples } from './examples.js';
import { addLogFormatFlag, addQuietFlag } from './log-flags.js';
import { addRedisFlags } from './redis-flags.js';
import type { WorkerFlags } from './worker.js';

/**
 * Adds `crawlkit worker` to the program: a process that takes crawl and batch scrape tasks from a shared Redis
 * (`crawlkit serve --redis` and the API submit them, or `new Crawlkit({ backend: redis({ url }) })`).
 */
export function addWorkerCommand(
  program: Command,
  io: CliIo,
  signal: AbortSignal,
  setExit: (code: number) => void,
): Command {
  const command = program
    .command('worker')
    .description('take crawl and batch tasks from a shared Redis queue until stopped (Ctrl-C, SIGTERM)');
  // `--prefix`: the older spelling of `--redis-prefix`, still taken, not listed.
  addRedisFlags(command, 'Redis URL of the deployment').addOption(new Option('--prefix <prefix>').hideHelp());
  addEngineFlags(command)
    .option('--concurrency <n>', 'pages at once in this worker (default 16)')
    .option(
      '--task-lock-ms <ms>',
      "a dead worker's tasks go to others 1-1.5 times this after it dies; the same in every worker (default 30000)",
    )
    .option(
      '--task-retry-delay-ms <ms>',
      'a task that failed on Redis (not its page) runs again after this, doubled each time, five runs (default 1000)',
    )
    .option(
      '--store-fault-timeout-ms <ms>',
      'a task whose Redis keeps failing (out of memory) ends its job failed after this (default 3600000)',
    )
    .option(
      '--sweep-interval-ms <ms>',
      'while idle, look this often for jobs a dead process left unqueued or unfinished (default 5000)',
    )
    .option(
      '--url-policy <policy>',
      "this worker's URL policy (strict or JSON), on top of each job's; env CRAWLKIT_URL_POLICY",
    );
  addQuietFlag(command);
  return addLogFormatFlag(command)
    .addHelpText('after', examples('worker'))
    .exitOverride()
    .action(async (flags: WorkerFlags) => {
      const { runWorker } = await import('./worker.js');
      setExit(await runWorker(flags, io, signal));
    });
}
