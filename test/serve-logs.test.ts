/**
 * What an operator's logs of `crawlkit serve` hold with every debug namespace on (`DEBUG=crawlkit:*`): a line per
 * request, and no API key, header value or credentials of a page's URL, whatever the request and however it ends.
 * The built command, a fixture site on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, startCli } from './cli-helpers.ts';
import { until } from './helpers-batch.ts';

const KEY = 'fc-logs-KEY-S3CRET';
const SECRETS = [KEY, 'fc-wrong-S3CRET', 'pass-S3CRET', 'header-S3CRET', 'cookie-S3CRET'];

let site: FixtureServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  site = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-serve-logs-'));
});

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('serve logs', () => {
  it(
    'say who called what, with no API key, header value or URL credentials, with DEBUG=crawlkit:* and crawlkit:explain',
    { timeout: 60_000 },
    async () => {
      const child = startCli(['serve', '--port', '0', '--store', './store', '--engine', 'http', '--api-key', KEY], {
        cwd: dir,
        // crawlkit:explain only when named: it explains every page.
        env: { DEBUG: 'crawlkit:*,crawlkit:explain' },
      });
      let stdout = '';
      child.stdout!.on('data', (chunk: string) => (stdout += chunk));
      await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
      const base = stdout.trim();
      const post = (body: unknown, key = KEY) =>
        fetch(`${base}/v2/scrape`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const page = new URL(`${site.url}/articles/first-post.html`);
      page.username = 'user';
      page.password = 'pass-S3CRET';
      const headers = { 'X-Api-Token': 'header-S3CRET', Cookie: 'session=cookie-S3CRET' };
      expect((await post({ url: page.href, headers })).status).toBe(200);
      // A page that fails, with the same secrets, and a wrong key.
      expect((await post({ url: 'http://user:pass-S3CRET@127.0.0.1:1/', headers })).status).not.toBe(200);
      expect((await post({ url: page.href }, 'fc-wrong-S3CRET')).status).toBe(401);
      expect((await fetch(`${base}/health`)).status).toBe(200);
      child.kill('SIGTERM');
      const { stderr, code } = await child.result;
      expect(code).toBe(0);
      // The debug lines were written: the scrapes are in them, without their secrets.
      expect(stderr).toContain(`crawlkit:timing ${site.url}/articles/first-post.html success`);
      expect(stderr).toContain(`crawlkit:explain ${site.url}/articles/first-post.html`);
      for (const secret of SECRETS) expect(stderr).not.toContain(secret);
      // One access line per request (serve's own lines, DEBUG or not): method, path, status, time, client and the key's
      // tenant (a hash, never the key); a 5xx an error line with its code.
      const access = stderr.split('\n').filter((line) => /Z (info|error) POST /.test(line));
      expect(access).toHaveLength(3);
      expect(access[0]).toMatch(/Z info POST \/v2\/scrape 200 \d+ ms 127\.0\.0\.1 key-[0-9a-f]{16}$/);
      expect(access[1]).toMatch(/Z error POST \/v2\/scrape 500 \d+ ms 127\.0\.0\.1 key-[0-9a-f]{16} [A-Z_]+$/);
      expect(access[2]).toMatch(/Z info POST \/v2\/scrape 401 \d+ ms 127\.0\.0\.1$/);
      // A probe that succeeds is a debug line, in the server's debug namespace, not an access line.
      expect(stderr).not.toMatch(/info GET \/health/);
      expect(stderr).toMatch(/crawlkit:server GET \/health 200 \d+ ms 127\.0\.0\.1/);
    },
  );
});
