/**
 * `crawlkit serve` and `crawlkit worker` that cannot start tell a supervisor why in the form of their log: with
 * `--log-format json` one JSON line (level error, `event: 'serve-failed'` or `'worker-failed'`, the error code, a
 * message that says what to fix) and nothing else, with the exit code of the text form. A port taken is
 * `LISTEN_FAILED` (before: a plain text line without a code); a store directory that cannot be made is
 * `STORE_OPEN_FAILED` at start (before: serve started, and every request failed on it); a worker's Redis that does not
 * answer is `STORE_OPEN_FAILED` and a worker without a Redis URL `CLI_USAGE` (before: plain text under JSON logs). The
 * CLI runs in this process (`runCli`), a real port held by a real listener, a real path under a file, a real closed port.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './cli-helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'ck-serve-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI in this process (`runCli`), in the file's directory. */
const cli = (args: string[], env?: Record<string, string | undefined>) =>
  runCli(args, { cwd: dir, ...(env ? { env } : {}) });

/** The lines of `text`, each read as JSON. */
const jsonLines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('serve that cannot start, with JSON logs', () => {
  it('a port taken: one JSON line with LISTEN_FAILED and what to do, exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as { port: number }).port);
    try {
      const store = join(dir, 'store');
      const { code, stderr, stdout } = await cli(['serve', '--port', port, '--store', store, '--log-format', 'json']);
      expect(code, stderr).toBe(1);
      expect(stdout).toBe('');
      expect(jsonLines(stderr)).toEqual([
        {
          time: expect.stringMatching(/Z$/),
          level: 'error',
          msg: expect.stringMatching(/^Cannot serve on 127\.0\.0\.1:\d+: .*EADDRINUSE.*give another --port/),
          event: 'serve-failed',
          code: 'LISTEN_FAILED',
        },
      ]);
      // The text form is unchanged: one line saying the same.
      const text = await cli(['serve', '--port', port, '--store', store]);
      expect(text.code).toBe(1);
      expect(text.stderr).toMatch(
        /^crawlkit: Cannot serve on 127\.0\.0\.1:\d+: .*Stop it, or give another --port .*\(LISTEN_FAILED\)\n$/,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('an address the machine does not have: LISTEN_FAILED naming --host, exit 1, in JSON and in text', async () => {
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: the listen fails before any packet is sent.
    const args = [
      'serve',
      '--host',
      '192.0.2.1',
      '--api-key',
      'fc-start-0123456789',
      '--port',
      '0',
      '--store',
      'memory',
    ];
    const json = await cli([...args, '--log-format', 'json']);
    expect(json.code, json.stderr).toBe(1);
    expect(jsonLines(json.stderr)).toEqual([
      {
        time: expect.stringMatching(/Z$/),
        level: 'error',
        msg: expect.stringMatching(/^Cannot serve on 192\.0\.2\.1:0: .*EADDRNOTAVAIL.*Give a --host it has/),
        event: 'serve-failed',
        code: 'LISTEN_FAILED',
      },
    ]);
    const text = await cli(args);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(
      /^crawlkit: Cannot serve on 192\.0\.2\.1:0: .*not one of this machine's\. Give a --host it has .*\(LISTEN_FAILED\)\n$/,
    );
  });

  it('a store directory that cannot be made: STORE_OPEN_FAILED at start, exit 1, in JSON and in text', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const store = join(file, 'store');
    const { code, stderr } = await cli(['serve', '--port', '0', '--store', store, '--log-format', 'json']);
    expect(code, stderr).toBe(1);
    expect(jsonLines(stderr)).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        msg: expect.stringMatching(/^Cannot create the store in .*ENOTDIR.*--store/),
        event: 'serve-failed',
        code: 'STORE_OPEN_FAILED',
      },
    ]);
    const text = await cli(['serve', '--port', '0', '--store', store]);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^crawlkit: Cannot create the store in .*\(STORE_OPEN_FAILED\)\n$/);
  });
});

describe('worker that cannot start, with JSON logs', () => {
  it('a Redis that does not answer: one JSON line with STORE_OPEN_FAILED, exit 1; the text form unchanged', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const redis = `redis://127.0.0.1:${port}`;
    const { code, stderr, stdout } = await cli(['worker', '--redis', redis, '--log-format', 'json']);
    expect(code, stderr).toBe(1);
    expect(stdout).toBe('');
    expect(jsonLines(stderr)).toEqual([
      {
        time: expect.stringMatching(/Z$/),
        level: 'error',
        msg: expect.stringMatching(/^Cannot connect to Redis: .*ECONNREFUSED.*is redis-server running/),
        event: 'worker-failed',
        code: 'STORE_OPEN_FAILED',
      },
    ]);
    const text = await cli(['worker', '--redis', redis]);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^crawlkit: Cannot connect to Redis: .*\(STORE_OPEN_FAILED\)\n$/);
  });

  it('no Redis URL or a bad flag: one JSON line with CLI_USAGE, exit 2', async () => {
    for (const args of [
      ['worker', '--log-format', 'json'],
      ['worker', '--redis', 'redis://127.0.0.1:9', '--concurrency', 'x', '--log-format', 'json'],
    ]) {
      const { code, stderr } = await cli(args, { CRAWLKIT_REDIS_URL: undefined });
      expect(code, stderr).toBe(2);
      expect(jsonLines(stderr)).toEqual([
        {
          time: expect.any(String),
          level: 'error',
          msg: expect.stringMatching(/--redis <url>|--concurrency/),
          event: 'worker-failed',
          code: 'CLI_USAGE',
        },
      ]);
    }
  });
});
