import { existsSync } from 'node:fs';
import { finished } from 'node:stream/promises';

import { redactUrl } from '@crawlkit/fetcher/analysis';
import type { Command } from 'commander';

import type { Crawlkit } from '../crawlkit.js';
import type { Logger } from '../logger.js';
import type { CrawlkitOptions } from '../options.js';
import { ENGINE_DEFAULTS } from '../engine-defaults.js';
import type { ErrorResponse } from '../v2/types.js';

import { readText } from './file-arguments.js';
import type { RefusedBodyKind } from './body-refusal.js';
import { engineOptionsOf, type EngineFlags } from './engine-options.js';
import { CliError, EXIT, outputUnwritable, exitCodeFor } from './errors.js';
import { errorLine } from './error-line.js';
import { flagOfIssue } from './flag-of-issue.js';
import { withFlags } from './option-flags.js';
import { outFile, type OutFile } from './out-file.js';
import { outTarget } from './out-path.js';
import type { RedisSettings } from './redis-settings.js';
import { WEBHOOK_TIMEOUT_MS } from '../webhooks/dispatcher-options.js';
import { proxyFromEnv } from './proxy-env.js';
import { resolveWebhookSecret } from './webhook-secret.js';

/** The `--store` value that means the memory store rather than a directory. */
const MEMORY_STORE = 'memory';

/** Where the CLI reads and writes; the real process streams, or test doubles. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadableStream;
}

/** Options every command takes. */
export interface GlobalOptions extends EngineFlags {
  store?: string;
  json?: boolean;
  ndjson?: boolean;
  out?: string;
  quiet?: boolean;
  /** Exit 3 when some pages of a job (or files of a parse) failed, where it exits 0. */
  strict?: boolean;
}

export type OutputMode = 'text' | 'json' | 'ndjson';

/** One command's run: its streams, options, engine and a way out. */
export class CommandContext {
  readonly io: CliIo;
  readonly options: GlobalOptions;
  readonly signal: AbortSignal;
  /** The command being run: a refused body's field is told as the flag that set it. */
  command: Command | undefined;
  /** The Redis of `--redis` (or its environment): jobs live there instead of the store directory. */
  redis: RedisSettings | undefined;
  /**
   * The lines of a command that runs until stopped (`serve`): set before the first use of `engine`, it takes the
   * notes (`info`) and the engine's warnings (`warn`) in its own form.
   */
  logger: Logger | undefined;
  /** The file the output is saved in (`--out page.md`), where it would otherwise go to stdout. */
  readonly outFile: string | undefined;
  readonly #outFile: OutFile | undefined;
  #outError: Error | undefined;
  #engine: Crawlkit | undefined;
  #Engine: typeof Crawlkit | undefined;
  #overrides: CrawlkitOptions = {};
  /** The engine options of the global flags, read before anything loads: a bad one is refused at once. */
  readonly #flagged: CrawlkitOptions;

  constructor(io: CliIo, options: GlobalOptions, signal: AbortSignal) {
    this.signal = signal;
    if (options.json && options.ndjson) throw new CliError('Choose one of --json and --ndjson');
    // Checked before any engine starts: a crawl would otherwise run, then fail on its first page's files.
    const out = options.out === undefined ? undefined : outTarget(options.out);
    if (out?.kind === 'refused') throw new CliError(out.problem);
    if (out?.kind === 'file') {
      // `-o page.md`: what the command prints goes to the file, as with `> page.md`; no directory of pages.
      this.outFile = options.out;
      this.#outFile = outFile(options.out!);
      // Told when the command ends (a full disk): an 'error' event with no listener would end the process mid-run.
      this.#outFile.stream.on('error', (error: Error) => {
        this.#outError ??= error;
      });
      this.io = { ...io, stdout: this.#outFile.stream };
      this.options = { ...options, out: undefined };
    } else {
      this.io = io;
      this.options = options;
    }
    this.#flagged = engineOptionsOf(options);
  }

  get mode(): OutputMode {
    return this.options.json ? 'json' : this.options.ndjson ? 'ndjson' : 'text';
  }

  get storeDir(): string {
    return this.options.store ?? process.env.CRAWLKIT_STORE ?? ENGINE_DEFAULTS.storeDir;
  }

  /**
   * Whether the store named is `memory` (`--store memory`, `CRAWLKIT_STORE=memory`): the API's `store: 'memory'`,
   * which keeps nothing after the command. A directory of that name is `./memory`.
   */
  get inMemory(): boolean {
    return this.storeDir === MEMORY_STORE;
  }

  /** The store as a message names it: its directory, or what a memory store is. */
  get storePlace(): string {
    return this.inMemory ? 'memory (--store memory keeps nothing after its command)' : this.storeDir;
  }

  /** Whether a job this command starts outlives it: it is kept in Redis or a store directory, not in memory. */
  get jobKept(): boolean {
    return !!this.redis || !this.inMemory;
  }

  /** The store directory that holds the command's jobs; undefined when they live in Redis or in memory (replay). */
  get jobsDir(): string | undefined {
    return this.redis || this.inMemory || this.#overrides.store !== undefined ? undefined : this.storeDir;
  }

  /**
   * Whether there is no store to read: no `--redis`, and a memory store or no directory at `storeDir`. A command
   * that only reads or clears the store says so instead of opening it, which would make the directory.
   */
  get storeMissing(): boolean {
    return !this.redis && (this.inMemory || !existsSync(this.storeDir));
  }

  /**
   * Loads the engine's code. A command awaits it once its input is read, before its first use of `engine`: input it
   * refuses (a local file for a URL, an unreadable `--body`, an unknown action) is told without loading the engine.
   */
  async load(): Promise<void> {
    this.#Engine ??= (await import('../crawlkit.js')).Crawlkit;
  }

  /** The engine's answer to a body the v2 schema of `kind` refuses, found before the engine opens a store. */
  async refusal(kind: RefusedBodyKind, body: unknown): Promise<ErrorResponse | undefined> {
    return (await import('./body-refusal.js')).bodyRefusal(kind, body);
  }

  /** Engine options of this command beside the global flags (before the first use of `engine`). */
  configure(overrides: CrawlkitOptions): void {
    this.#overrides = { ...this.#overrides, ...overrides };
  }

  /**
   * For a command that keeps nothing (parse, map): its engine runs on a memory store, so that the command leaves no
   * `./.crawlkit` behind, unless a store is named (`--store`, `CRAWLKIT_STORE`).
   */
  storeNothing(): void {
    if (this.options.store === undefined && process.env.CRAWLKIT_STORE === undefined) {
      this.configure({ store: 'memory' });
    }
  }

  /** The engine, created on first use with the global options (after `load()`). */
  get engine(): Crawlkit {
    if (!this.#engine) {
      if (!this.#Engine) throw new Error('CommandContext.load() was not awaited');
      const { http, workers, ...flagged } = this.#flagged;
      const where: CrawlkitOptions = this.inMemory ? { store: 'memory' } : { storeDir: this.storeDir };
      const options: CrawlkitOptions = { ...where, ...this.#overrides, ...flagged };
      if (http) options.http = { ...options.http, limits: { ...options.http?.limits, ...http.limits } };
      if (workers) options.workers = { ...options.workers, ...workers };
      // Every command that sends a job's webhooks (crawl, batch, resume; serve and mcp resolve their own) signs them.
      const secret = options.webhooks?.secret ?? resolveWebhookSecret({}, process.env, {});
      if (secret !== undefined) options.webhooks = { ...options.webhooks, secret };
      // A command's close() is its exit: it lets the attempts under way have their whole timeout (an app's close()
      // bounds them, leaving the events to its next start, which a one-shot command may never have).
      const attemptMs = options.webhooks?.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
      options.webhooks = { closeTimeoutMs: attemptMs, ...options.webhooks };
      // Every command that fetches pages goes through the proxy of the environment (serve and mcp resolve their own).
      const proxy = options.proxies ? undefined : proxyFromEnv(process.env);
      if (proxy) options.proxies = { basic: [proxy] };
      this.#engine = new this.#Engine(options);
      // Even with --quiet: a warning may mean lost data (a truncated store).
      const logger = this.logger;
      this.#engine.on('warning', ({ code, message }) => {
        if (logger) logger.warn(message, { code });
        else this.io.stderr.write(`crawlkit: warning: ${message}\n`);
      });
    }
    return this.#engine;
  }

  async close(): Promise<void> {
    await this.#engine?.close();
  }

  /** The command ended: the engine closed, and the `--out` file (when the output went to one) written whole. */
  async end(): Promise<void> {
    try {
      await this.close();
    } finally {
      if (this.#outFile) await finished(this.#outFile.stream.end()).catch(() => undefined);
    }
    if (this.#outError) {
      throw outputUnwritable(`--out ${this.outFile} could not be written`, this.#outError);
    }
  }

  /** Closes the engine; the next use of `engine` opens a new one on the same store (to read what the old one left). */
  async reopen(): Promise<void> {
    await this.close();
    this.#engine = undefined;
  }

  /** Makes `--out page.md` append to the file (a resume's pages to come); false when the output goes elsewhere. */
  appendToOutFile(): boolean {
    this.#outFile?.append();
    return this.#outFile !== undefined;
  }

  /** The flags that say where this command's output goes (`--ndjson`, `--out`), for a command line to type next. */
  outputFlags(): string {
    const mode = this.mode === 'text' ? '' : ` --${this.mode}`;
    const out = this.options.out ?? this.outFile;
    return `${mode}${out === undefined ? '' : ` --out ${JSON.stringify(out)}`}`;
  }

  /** The exit code of work that is done with `failed` of its pages failed: 3 under `--strict`, else 0. */
  doneExit(failed: number): number {
    return failed > 0 && this.options.strict ? EXIT.somePagesFailed : EXIT.ok;
  }

  /** The flags that name where the jobs are, for a command line to type next (the Redis URL without its password). */
  whereFlags(): string {
    if (this.redis) {
      const prefix = this.redis.prefix ? ` --redis-prefix ${JSON.stringify(this.redis.prefix)}` : '';
      return ` --redis ${JSON.stringify(redactUrl(this.redis.url))}${prefix}`;
    }
    return this.options.store ? ` --store ${JSON.stringify(this.options.store)}` : '';
  }

  /** A line for the person at the terminal (stderr), unless `--quiet`; an `info` line of `logger` when there is one. */
  note(message: string): void {
    if (this.logger) this.logger.info(message);
    else if (!this.options.quiet) this.io.stderr.write(`${message}\n`);
  }

  /** A line telling where the error just reported is, or what to do: on stderr even with `--quiet`, as the error. */
  explain(message: string): void {
    this.io.stderr.write(`${message}\n`);
  }

  write(text: string): void {
    this.io.stdout.write(text);
  }

  /** Writes to stdout; resolves once the text is with the kernel (a pipe's writes can be queued in-process). */
  writeFlushed(text: string): Promise<void> {
    return new Promise((resolve) => this.io.stdout.write(text, () => resolve()));
  }

  writeJson(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /**
   * Reports a v2 error (stderr; stdout too as JSON in `--json`/`--ndjson` mode) and returns its exit code. A field
   * refused for what a flag set is the flag's fault: its line names the flag and ends in `CLI_USAGE` (the table's "a
   * flag is wrong"), where the JSON answer keeps the v2 body's `BAD_REQUEST` and the field.
   */
  fail(error: ErrorResponse): number {
    if (this.mode === 'json') this.writeJson(error);
    else if (this.mode === 'ndjson') this.write(`${JSON.stringify(error)}\n`);
    const flag = flagOfIssue(error, this.command);
    const words = `${flag && !error.error.includes(flag) ? `${flag}: ` : ''}${withFlags(error.error)}`;
    const code = flag ? 'CLI_USAGE' : error.code;
    this.io.stderr.write(errorLine(words, code));
    return exitCodeFor(error.code);
  }

  /** Reads `--body`: a JSON object from a file, or from stdin with `-`. */
  async readBody(path: string | undefined): Promise<Record<string, unknown>> {
    if (path === undefined) return {};
    const text = path === '-' ? await readStream(this.io.stdin) : readText(path, '--body');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CliError(`--body is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new CliError('Bad Request: the body must be a JSON object');
    }
    return value as Record<string, unknown>;
  }

  async readInput(path: string): Promise<string> {
    return path === '-' ? readStream(this.io.stdin) : readText(path, 'the input file');
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
