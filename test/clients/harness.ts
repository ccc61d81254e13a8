/**
 * What the real-client suites run against: the built `crawlkit serve` as a child process, configured as a user
 * would (the model by Firecrawl self-host's environment variables, the browser by `crawlkit.config.json`), the
 * fixture site and a local OpenAI-compatible model server, all on 127.0.0.1. Every Node process of the stack but
 * the test's own (the server, the client under test) runs with `net-guard.ts`, which records each host it dials
 * and refuses any that is not loopback.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll } from 'vitest';

import { startLlmServer, type LlmServer } from '../../fixtures/llm-server.ts';
import { startFixtureServer, type FixtureServer } from '../../fixtures/server.ts';
import { ensureBuilt, startCli, type CliResult } from '../cli-helpers.ts';
import { until } from '../helpers-batch.ts';
import { ISOLATED_ARGS } from '../helpers/scrape.ts';
import { clientRoutes, heldPages } from './site.ts';

const GUARD = fileURLToPath(new URL('./net-guard.ts', import.meta.url));

/** A host a guarded process dialled. */
export interface Dialled {
  host: string;
  port: number;
  allowed: boolean;
  pid: number;
}

export interface ClientStack {
  site: FixtureServer;
  llm: LlmServer;
  /** The server's address, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The API key the server takes (clients send it). */
  key: string;
  /** A scratch directory: the server's store, the clients' HOME and working directory. */
  dir: string;
  page(path: string): string;
  /** The environment of a client process: the server's address and key, no update checks, the network guard. */
  clientEnv(extra?: Record<string, string>): Record<string, string>;
  /** Every connection a guarded process opened so far. */
  dialled(): Dialled[];
  /** The server's stderr so far. */
  serverLog(): string;
  close(): Promise<void>;
}

export async function startClientStack(options: { key?: string; serveArgs?: string[] } = {}): Promise<ClientStack> {
  ensureBuilt();
  const key = options.key ?? 'fc-0123456789abcdef0123456789abcdef';
  const held = heldPages();
  const site = await startFixtureServer({ routes: clientRoutes(held) });
  const llm = await startLlmServer();
  const dir = mkdtempSync(join(tmpdir(), 'ck-clients-'));
  const netLog = join(dir, 'net.log');
  const guard = { NODE_OPTIONS: `--import=${GUARD}`, CRAWLKIT_NET_LOG: netLog };
  // The browser resolves only 127.0.0.1, as every browser test does.
  writeFileSync(join(dir, 'crawlkit.config.json'), JSON.stringify({ browser: { args: ISOLATED_ARGS } }));
  const child = startCli(['serve', '--port', '0', '--store', './store', ...(options.serveArgs ?? [])], {
    cwd: dir,
    env: {
      ...guard,
      CRAWLKIT_API_KEY: key,
      // Firecrawl self-host's own variables, as a user sets them.
      OPENAI_BASE_URL: llm.url,
      OPENAI_API_KEY: 'sk-local-test',
      MODEL_NAME: 'local-test-model',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  await until(() => stdout.includes('\n') || child.exitCode !== null, 60_000);
  if (!stdout.includes('\n')) throw new Error(`crawlkit serve did not start: ${stderr}`);
  const url = stdout.trim();
  return {
    site,
    llm,
    url,
    key,
    dir,
    page: (path) => `${site.url}${path}`,
    clientEnv: (extra = {}) => ({
      HOME: dir,
      FIRECRAWL_API_URL: url,
      FIRECRAWL_API_KEY: key,
      FIRECRAWL_NO_TELEMETRY: '1',
      FIRECRAWL_NO_UPDATE_CHECK: '1',
      // Test plumbing, not the user's shell: the compiled code of the client's modules and of the guard, kept from
      // one process to the next (vitest.config.ts sets it). Without it each command compiled them again.
      ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
      ...guard,
      ...extra,
    }),
    dialled: () =>
      existsSync(netLog)
        ? readFileSync(netLog, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Dialled)
        : [],
    serverLog: () => stderr,
    close: async () => {
      held.releaseAll();
      child.kill('SIGTERM');
      const result: CliResult = await child.result;
      if (result.code !== 0) throw new Error(`crawlkit serve exited ${result.code}: ${result.stderr}`);
      await site.close();
      await llm.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a stack before the file's tests, hands it to `started`, and closes it after them. */
export function useClientStack(started: (stack: ClientStack) => void): void {
  let stack: ClientStack | undefined;
  beforeAll(async () => {
    stack = await startClientStack();
    started(stack);
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
  });
}
