/**
 * Runs the `crawlkit` command: `runCli` calls its `main()` from the sources in the test's process (a command's child
 * cost 1.35 s of CPU to start: Node, ~660 modules, the extraction threads), `startCli` and `runCli(…, { process: true })`
 * the BUILT command (packages/crawlkit/dist/cli.js) as a child process, for what is about the process (signals, exit,
 * flushing, start-up). `ensureBuilt()` builds the packages first when their sources are newer than their build.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(root, 'packages/crawlkit/dist/cli.js');

export { ensureBuilt } from '../scripts/packed/build.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  input?: string;
  /** Variables set over the test's environment; one given as undefined is unset. */
  env?: Record<string, string | undefined>;
  /**
   * Run the built command as a child process instead of its `main()` in the test's process.
   * @default false
   */
  process?: boolean;
  /**
   * Stops the command as Ctrl-C does (a child is sent SIGINT): for one that runs until stopped, as `serve`.
   * @default never stopped
   */
  signal?: AbortSignal;
  /**
   * Called with each piece of stdout as it is written (what the command printed so far, before it ends).
   * @default none
   */
  onStdout?: (text: string) => void;
  /**
   * Called with each piece of stderr as it is written.
   * @default none
   */
  onStderr?: (text: string) => void;
}

/** Starts the CLI with pipes for stdin, stdout and stderr. */
export function startCli(args: string[], options: CliOptions): ChildProcess & { result: Promise<CliResult> } {
  return startScript(CLI, args, { ...options, env: { ...process.env, ...options.env } });
}

/**
 * Starts a Node script under the test's Node with pipes, its environment exactly `options.env` (no variable of the
 * test's own leaks in unless given).
 */
export function startScript(
  script: string,
  args: string[],
  options: CliOptions,
): ChildProcess & { result: Promise<CliResult> } {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: options.cwd,
    env: options.env ?? {},
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A command that refuses its arguments can exit before reading its input: the write then fails with EPIPE, which
  // is no error of the test (unheard, it failed a whole suite run as an uncaught exception).
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.input ?? '');
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return Object.assign(child, { result });
}

/**
 * `crawlkit worker` over HTTP on a test Redis under `prefix`, with a task lock of `taskLockMs` (a killed worker's page
 * is taken over that long after), the Redis settings of the environment cleared.
 */
export function startRedisWorker(
  redisUrl: string,
  prefix: string,
  taskLockMs: number,
  cwd: string,
): ChildProcess & { result: Promise<CliResult> } {
  const args = ['worker', '--engine', 'http', '--redis', redisUrl, '--redis-prefix', prefix];
  return startCli([...args, '--task-lock-ms', `${taskLockMs}`], {
    cwd,
    env: { CRAWLKIT_REDIS_URL: '', CRAWLKIT_REDIS_PREFIX: '' },
  });
}

/** Whether a `runCli` is running in this process: it owns the process's working directory and environment. */
let running = false;

/**
 * Runs the command and resolves its exit code and output: in the test's process unless `options.process`, or another
 * in-process run is still going (the two would share one working directory and environment), which get a child.
 */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  if (options.process || running) {
    const child = startCli(args, options);
    if (options.onStdout) child.stdout!.on('data', options.onStdout);
    if (options.onStderr) child.stderr!.on('data', options.onStderr);
    options.signal?.addEventListener('abort', () => child.kill('SIGINT'), { once: true });
    return child.result;
  }
  running = true;
  return runInProcess(args, options).finally(() => (running = false));
}

/**
 * `main()` with in-memory streams (not terminals, as pipes are), in `options.cwd` with `options.env` set over the
 * process's environment as a child would have them, both put back when it returns. The command resolves relative
 * paths, and the library below it reads its settings, from the process itself: changing both for the run is what
 * makes it see what a child sees.
 */
async function runInProcess(args: string[], options: CliOptions): Promise<CliResult> {
  const { main } = await import('../packages/crawlkit/src/cli/program.ts');
  const stdout = memoryStream(options.onStdout);
  const stderr = memoryStream(options.onStderr);
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const saved = Object.keys(options.env ?? {}).map((name) => [name, process.env[name]] as const);
  setEnv(options.env ?? {});
  const cwd = process.cwd();
  process.chdir(options.cwd);
  try {
    const before = processListeners();
    const code = await main(args, { stdout, stderr, stdin }, options.signal ?? new AbortController().signal);
    // What a command leaves on the process outlives it here, unlike in a child: a leak fails the test that made it.
    const after = processListeners();
    const left = Object.keys(after).filter((event) => after[event]! > (before[event] ?? 0));
    if (left.length > 0) throw new Error(`crawlkit ${args.join(' ')} left listeners on process: ${left.join(', ')}`);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    process.chdir(cwd);
    setEnv(Object.fromEntries(saved));
  }
}

function processListeners(): Record<string, number> {
  return Object.fromEntries(process.eventNames().map((e) => [String(e), process.listenerCount(e)]));
}

function setEnv(env: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/** A stream that keeps what is written, as a pipe's end: `isTTY` false. */
function memoryStream(onWrite?: (text: string) => void): NodeJS.WriteStream & { text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      onWrite?.(chunk.toString('utf8'));
      callback();
    },
  });
  return Object.assign(stream, { isTTY: false, text: () => Buffer.concat(chunks).toString('utf8') }) as never;
}

/** Quotes an argument for `sh -c`. */
export function shellQuote(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}
