/**
 * The access lines of requests the server itself closes before a route answers, through the real `crawlkit serve`
 * and raw sockets: headers past Node's limit (431) and headers too slow (408) are refused by Node's parser, which no
 * route sees, and had no line at all; they now say the status answered and `server closed the connection (CODE)`.
 * A multipart upload to `/v2/parse` stopped mid-body answered 400 "the multipart upload could not be read (The
 * request body did not arrive …)" and held the connection about 75 s; it answers 408 `REQUEST_TIMEOUT` and closes,
 * as a JSON body does. A client that goes away keeps its 499 "client closed the connection".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import { ensureBuilt, startCli } from './cli-helpers.ts';
import { until } from './helpers-batch.ts';

let dir: string;
let child: ReturnType<typeof startCli>;
let port = 0;
let stderr = '';

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-serve-closed-'));
  child = startCli(['serve', '--port', '0', '--store', './store', '--engine', 'http', '--body-timeout', '1500'], {
    cwd: dir,
  });
  let stdout = '';
  child.stdout!.on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
  port = Number(new URL(stdout.trim()).port);
}, 60_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await child?.result;
  rmSync(dir, { recursive: true, force: true });
});

/** Sends `text` on a raw socket (then leaves after `leaveAfterMs`, if given); answers what came back and when. */
function raw(text: string, leaveAfterMs?: number): Promise<{ answer: string; closedMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ answer, closedMs: Date.now() - started }));
    socket.on('connect', () => {
      socket.write(text);
      if (leaveAfterMs !== undefined) setTimeout(() => socket.destroy(), leaveAfterMs);
    });
  });
}

const lines = () => stderr.split('\n').filter((line) => / (?:server|client) closed the connection/.test(line));

it('writes a line for headers past the limit: 431, server closed the connection', async () => {
  const { answer } = await raw(
    `GET /v2/crawl/big?key=q HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`,
  );
  expect(answer).toMatch(/^HTTP\/1\.1 431 /);
  await until(() => lines().length >= 1, 5_000);
  expect(lines().at(-1)).toMatch(
    /info GET \/v2\/crawl\/big 431 - 127\.0\.0\.1 server closed the connection \(REQUEST_HEADERS_TOO_LARGE\)$/,
  );
});

it('writes a line for headers that stop coming: 408, server closed the connection', async () => {
  const { answer } = await raw('POST /v2/scrape HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty');
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  await until(() => lines().length >= 2, 5_000);
  expect(lines().at(-1)).toMatch(/ 408 - 127\.0\.0\.1 server closed the connection \(REQUEST_TIMEOUT\)$/);
}, 15_000);

it('answers an upload that stops coming 408 REQUEST_TIMEOUT and closes the connection', async () => {
  const boundary = 'XyZ';
  const { answer, closedMs } = await raw(
    `POST /v2/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: 1000\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n` +
      'Content-Type: text/plain\r\n\r\nthe first words of',
  );
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
  expect(answer).toContain(
    "The request body did not arrive within 1500 ms (the server's --body-timeout, bodyTimeoutMs)",
  );
  expect(closedMs).toBeLessThan(10_000);
  await until(() => / POST \/v2\/parse 408 \d+ ms 127\.0\.0\.1/.test(stderr), 5_000);
}, 20_000);

it('keeps 499, client closed the connection, for a client that leaves mid-body', async () => {
  const before = lines().length;
  await raw(
    'POST /v2/scrape HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"url":',
    300,
  );
  // Its own line, not the first one after `before`: the upload's socket, closed by the test before, may log after it.
  const own = () =>
    lines()
      .slice(before)
      .find((line) => / POST \/v2\/scrape 499 /.test(line));
  await until(() => own() !== undefined, 5_000);
  expect(own()).toMatch(/info POST \/v2\/scrape 499 \d+ ms 127\.0\.0\.1 client closed the connection$/);
  expect(stderr).not.toMatch(/ 499 .*server closed/);
});

it("writes no server line for a client that ends its side mid-body: the parser's end-of-file is the client leaving", async () => {
  const before = lines().length;
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.on('connect', () =>
    socket.end(
      'POST /v2/scrape HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    ),
  );
  const own = () =>
    lines()
      .slice(before)
      .find((line) => / POST \/v2\/scrape 499 /.test(line));
  await until(() => own() !== undefined, 5_000);
  // Node's parser reports the end (HPE_INVALID_EOF_STATE) before the request's abort: it was logged "- - 400 … server
  // closed the connection (BAD_REQUEST)" first.
  expect(lines().slice(before)).toEqual([own()]);
});
