/**
 * `crawlkit serve` as the command runs it (its `main()` in the test's process), on a new store under `dir` (jobs in
 * Redis instead with `--redis`), port 0 and the HTTP engine: the tests of serve's flags, variables and settings file
 * start it with their own on top.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';

import { runCli, type CliResult } from '../cli-helpers.ts';
import { until } from '../helpers-batch.ts';

export interface ServeCli {
  /** `http://127.0.0.1:<port>` of the listener. */
  url: string;
  /** Stops serve as Ctrl-C does; resolves what the command printed and its exit code. */
  stop(): Promise<CliResult>;
}

/** Starts `crawlkit serve` with `args` and `env` (jobs in Redis with `--redis`); resolves once it printed its address. */
export async function serveCli(dir: string, args: string[], env: Record<string, string> = {}): Promise<ServeCli> {
  const store = args.includes('--redis') ? [] : ['--store', mkdtempSync(join(dir, 'store-'))];
  const stopped = new AbortController();
  let stdout = '';
  let ended = false;
  const result = runCli(['serve', '--port', '0', ...store, '--engine', 'http', ...args], {
    cwd: dir,
    env,
    signal: stopped.signal,
    onStdout: (text) => (stdout += text),
  }).finally(() => (ended = true));
  await until(() => stdout.includes('\n') || ended, 30_000);
  return {
    url: `http://127.0.0.1:${new URL(stdout.trim()).port}`,
    stop: async () => {
      stopped.abort();
      return result;
    },
  };
}
