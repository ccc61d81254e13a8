/**
 * A throwaway `redis-server` for the distributed-mode tests, on a free loopback port with persistence off.
 *
 * - As a vitest `globalSetup`, it starts one server for the whole run and sets `CRAWLKIT_TEST_REDIS_URL` (test files
 *   isolate themselves with a key prefix each).
 * - A test file calls `await testRedis()` at its top level: the URL from the environment (globalSetup, or a server
 *   you run: `CRAWLKIT_TEST_REDIS_URL=redis://127.0.0.1:6379`), or a server started for that file.
 *
 * Servers are stopped after their file or run, and a watchdog stops them if the process that started them dies.
 * When no server can be started, `testRedis()` resolves to undefined and the file skips with a visible message; with
 * `CRAWLKIT_REQUIRE_REDIS=1` (CI) it throws instead, so CI fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_URL_ENV = 'CRAWLKIT_TEST_REDIS_URL';
const BINARY = process.env.CRAWLKIT_REDIS_SERVER ?? 'redis-server';

export interface RedisServer {
  url: string;
  /** The server's process id (tests pause it with SIGSTOP, or kill it). */
  pid: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once the server answers PING (with PONG, or that it needs a password). */
async function waitForPong(port: number, deadline: number, child: ChildProcess): Promise<boolean> {
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.setTimeout(500);
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(/^(\+PONG|-NOAUTH)/.test(data.toString()));
      });
      socket.once('error', () => resolve(false));
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/**
 * Starts `redis-server` on a free loopback port, with `args` added to its command line (`--requirepass`, `--maxmemory`,
 * ...); undefined when it cannot (not installed, no port).
 */
export async function startRedisServer(args: readonly string[] = []): Promise<RedisServer | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'ck-redis-'));
    const child = spawn(
      BINARY,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...args],
      { stdio: 'ignore' },
    );
    const failed = await new Promise<boolean>((resolve) => {
      child.once('error', () => resolve(true));
      child.once('spawn', () => resolve(false));
    });
    if (failed) {
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
    if (await waitForPong(port, Date.now() + 10_000, child)) {
      child.unref();
      // The server must not outlive this process, even when it is killed (a test worker stopped on a timeout).
      spawn(
        'sh',
        [
          '-c',
          'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; kill "$2" 2>/dev/null; rm -rf "$3"',
          'ck-redis-watchdog',
          String(process.pid),
          String(child.pid),
          dir,
        ],
        { detached: true, stdio: 'ignore' },
      ).unref();
      return {
        url: `redis://127.0.0.1:${port}`,
        pid: child.pid!,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            // Unreferenced while running (so it never holds a process open); referenced again to await its exit.
            child.ref();
            const exited = new Promise((r) => child.once('exit', r));
            child.kill('SIGTERM');
            await exited;
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  return undefined;
}

/**
 * A server of a test's own, started with `args` (see `startRedisServer`): undefined when none can start, and a throw
 * instead with `CRAWLKIT_REQUIRE_REDIS=1` (CI).
 */
export async function ownRedisServer(args: readonly string[] = []): Promise<RedisServer | undefined> {
  const server = await startRedisServer(args);
  if (!server && process.env.CRAWLKIT_REQUIRE_REDIS === '1') throw new Error('redis-server could not be started');
  return server;
}

/** Stops a test's own server, resumed first if the test left it paused (SIGSTOP). */
export async function stopOwnRedisServer(server: RedisServer | undefined): Promise<void> {
  if (!server) return;
  try {
    process.kill(server.pid, 'SIGCONT');
  } catch {
    // already gone
  }
  await server.stop();
}

const SKIP_MESSAGE =
  '\n[redis] SKIPPED: redis-server could not be started (install Debian redis-server, or set CRAWLKIT_TEST_REDIS_URL)\n';

/**
 * The Redis URL for a test file (call it at the top level: `const redisUrl = await testRedis();`): from the
 * environment (globalSetup, or a server you run), else a server started for this file and stopped after it.
 * Undefined, after a visible message, when none can be had; with `CRAWLKIT_REQUIRE_REDIS=1` (CI) it throws instead.
 */
export async function testRedis(): Promise<string | undefined> {
  const fromEnv = process.env[REDIS_URL_ENV];
  if (fromEnv) return fromEnv;
  const server = await startRedisServer();
  if (!server) {
    if (process.env.CRAWLKIT_REQUIRE_REDIS === '1') {
      throw new Error('redis-server could not be started and CRAWLKIT_REQUIRE_REDIS=1');
    }
    process.stderr.write(SKIP_MESSAGE);
    return undefined;
  }
  const { afterAll } = await import('vitest');
  afterAll(() => server.stop());
  return server.url;
}

/** vitest globalSetup: one server for the run. */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[REDIS_URL_ENV]) return undefined;
  const server = await startRedisServer();
  if (!server) {
    if (process.env.CRAWLKIT_REQUIRE_REDIS === '1') throw new Error('redis-server could not be started');
    process.stderr.write(SKIP_MESSAGE);
    return undefined;
  }
  process.env[REDIS_URL_ENV] = server.url;
  return () => server.stop();
}
