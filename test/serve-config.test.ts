/**
 * `crawlkit serve` configured as a user configures it: issue 38's finding #3 (beyond loopback the URL policy is strict
 * unless loosened; webhooks signed with a secret from a flag or Firecrawl's own variable), proxies from Firecrawl's
 * `PROXY_SERVER`, and the settings file. The commands run in the test's process; the serves of the environment's
 * address and of a missing Chromium run as the built command in a child.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';
import { ensureBuilt, runCli, startCli } from './cli-helpers.ts';
import { until } from './helpers-batch.ts';
import { serveCli } from './helpers/serve-cli.ts';

const KEY = 'fc-serve-config-0123456789';
let site: FixtureServer;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  site = await startFixtureServer();
  dir = mkdtempSync(join(tmpdir(), 'ck-serve-config-'));
});

afterAll(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const serve = (args: string[], env: Record<string, string> = {}) => serveCli(dir, args, env);

async function api(base: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('#3 serve beyond loopback', () => {
  it('applies the strict URL policy on 0.0.0.0: the server cannot be made to read its own network', async () => {
    const server = await serve(['--host', '0.0.0.0', '--api-key', KEY]);
    try {
      const answer = await api(server.url, '/v2/scrape', { url: `${site.url}/docs/getting-started.html` });
      expect(answer).toMatchObject({ status: 403, body: { code: 'URL_BLOCKED' } });
      const crawl = await api(server.url, '/v2/crawl', { url: `${site.url}/` });
      expect(crawl.status).toBe(403);
    } finally {
      await server.stop();
    }
  });

  it('keeps the allow-all policy when the operator says --allow-private-networks', async () => {
    const server = await serve(['--host', '0.0.0.0', '--api-key', KEY, '--allow-private-networks']);
    try {
      const answer = await api(server.url, '/v2/scrape', { url: `${site.url}/docs/getting-started.html` });
      expect(answer.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

/** A webhook receiver: each delivery's headers and raw body. */
async function receiver(): Promise<{
  url: string;
  got: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}> {
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('#3 webhook signatures', () => {
  for (const [how, args, env] of [
    ['--webhook-secret', ['--webhook-secret', 'whsec-flag'], {}],
    ['SELF_HOSTED_WEBHOOK_HMAC_SECRET', [], { SELF_HOSTED_WEBHOOK_HMAC_SECRET: 'whsec-env' }],
  ] as const) {
    it(`signs every delivery with the secret of ${how}`, async () => {
      const secret = how === '--webhook-secret' ? 'whsec-flag' : 'whsec-env';
      const hook = await receiver();
      const server = await serve(['--api-key', KEY, ...args], env);
      try {
        const started = await api(server.url, '/v2/batch/scrape', { urls: [`${site.url}/`], webhook: hook.url });
        expect(started.status).toBe(200);
        await until(() => hook.got.some((d) => d.body.includes('batch_scrape.completed')), 30_000);
        for (const delivery of hook.got) {
          const expected = `sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`;
          expect(delivery.headers['x-firecrawl-signature']).toBe(expected);
        }
      } finally {
        await server.stop();
        await hook.close();
      }
    });
  }
});

/** A forward proxy (absolute-form requests and CONNECT tunnels) that records what it was asked for. */
async function forwardProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url!);
    const upstream = httpRequest(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('proxies and the settings file', () => {
  it("fetches pages through Firecrawl's PROXY_SERVER", async () => {
    const proxy = await forwardProxy();
    const server = await serve(['--api-key', KEY], { PROXY_SERVER: proxy.url });
    try {
      const answer = await api(server.url, '/v2/scrape', { url: `${site.url}/docs/getting-started.html`, maxAge: 0 });
      expect(answer.status).toBe(200);
      const target = new URL(site.url).host;
      expect(proxy.seen.some((s) => s.includes(target))).toBe(true);
    } finally {
      await server.stop();
      await proxy.close();
    }
  });

  it('reads crawlkit.config.json: keys, credit limit, CORS', async () => {
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ apiKeys: [KEY], creditLimit: 7, cors: ['https://app.example'] }));
    const server = await serve(['--config', file]);
    try {
      const credits = await api(server.url, '/v2/team/credit-usage');
      expect(credits.body.data).toMatchObject({ planCredits: 7, remainingCredits: 7 });
      const cors = await fetch(`${server.url}/v2/team/queue-status`, {
        headers: { authorization: `Bearer ${KEY}`, origin: 'https://app.example' },
      });
      expect(cors.headers.get('access-control-allow-origin')).toBe('https://app.example');
    } finally {
      await server.stop();
    }
  });

  it("reads the engine's http settings from crawlkit.config.json: a page over its limits.maxBodyBytes is refused", async () => {
    const file = join(dir, 'http-limits.json');
    writeFileSync(file, JSON.stringify({ apiKeys: [KEY], http: { limits: { maxBodyBytes: 200 } } }));
    const server = await serve(['--config', file]);
    try {
      const answer = await api(server.url, '/v2/scrape', { url: `${site.url}/docs/getting-started.html` });
      expect(answer).toMatchObject({ status: 500, body: { code: 'SCRAPE_RESPONSE_TOO_LARGE' } });
      expect(answer.body.error).toContain('exceeds the limit of 200 bytes');
      expect(answer.body.error).toContain('http.limits.maxBodyBytes');
    } finally {
      await server.stop();
    }
    // A misspelt limit is named by the engine's own check of its options.
    writeFileSync(file, JSON.stringify({ http: { limits: { maxBodyByte: 200 } } }));
    const result = await runCli(['serve', '--port', '0', '--config', file], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('maxBodyByte');
  });

  it('reads how webhooks are delivered from crawlkit.config.json: attempts and back-off', async () => {
    const refusing = createServer((_req, res) => void res.writeHead(500).end());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/hook`;
    const file = join(dir, 'webhooks.json');
    // Before, the file was refused ("unknown option `webhooks`"): serve had 10 attempts over ~8.5 min, fixed.
    writeFileSync(file, JSON.stringify({ apiKeys: [KEY], webhooks: { maxAttempts: 2, retryDelayMs: 50 } }));
    const server = await serve(['--config', file]);
    try {
      const started = await api(server.url, '/v2/batch/scrape', {
        urls: [`${site.url}/`],
        webhook: { url: hook, events: ['started'] },
      });
      const errors = async () => (await api(server.url, `/v2/batch/scrape/${String(started.body.id)}/errors`)).body;
      await until(async () => ((await errors()).errors as unknown[]).length === 1, 30_000);
      expect(JSON.stringify(await errors())).toContain('not delivered after 2 attempts: the webhook answered HTTP 500');
    } finally {
      await server.stop();
      await new Promise((resolve) => refusing.close(resolve));
    }
    writeFileSync(file, JSON.stringify({ webhooks: { secret: 'x' } }));
    const result = await runCli(['serve', '--port', '0', '--config', file], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('secret');
  });

  it('refuses a settings file with an unknown key, naming it', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ apiKey: KEY }));
    const result = await runCli(['serve', '--port', '0', '--config', file], { cwd: dir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('unknown option `apiKey`');
  });

  it('builds job URLs behind a reverse proxy: --public-url, CRAWLKIT_TRUST_PROXY, and names a bad public URL', async () => {
    const started = (base: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/v2/batch/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ urls: [`${site.url}/`] }),
      }).then(async (response) => (await response.json()) as { id: string; url: string });
    const prefixed = await serve(['--api-key', KEY, '--public-url', 'https://api.example.test/crawlkit']);
    try {
      const job = await started(prefixed.url);
      expect(job.url).toBe(`https://api.example.test/crawlkit/v2/batch/scrape/${job.id}`);
    } finally {
      await prefixed.stop();
    }
    const trusting = await serve(['--api-key', KEY], { CRAWLKIT_TRUST_PROXY: 'loopback' });
    try {
      const job = await started(trusting.url, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'front.test' });
      expect(job.url).toBe(`https://front.test/v2/batch/scrape/${job.id}`);
    } finally {
      await trusting.stop();
    }
    const bad = await runCli(['serve', '--port', '0', '--public-url', 'api.example.test'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--public-url');
  });

  it("listens where a container says: CRAWLKIT_PORT/PORT and CRAWLKIT_HOST/HOST (Firecrawl self-host's)", async () => {
    const free = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const store = mkdtempSync(join(dir, 'store-'));
    const env = { PORT: String(free), HOST: '0.0.0.0', CRAWLKIT_API_KEY: KEY };
    const child = startCli(['serve', '--store', store, '--engine', 'http'], { cwd: dir, env });
    let stdout = '';
    child.stdout!.on('data', (chunk: string) => (stdout += chunk));
    await until(() => stdout.includes('\n') || child.exitCode !== null, 30_000);
    try {
      expect(stdout.trim()).toBe(`http://0.0.0.0:${free}`);
      expect((await api(`http://127.0.0.1:${free}`, '/ready')).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await child.result;
    }
    // Beyond loopback without a key, refused as with --host; a bad port is named by its variable.
    const keyless = await runCli(['serve', '--store', store, '--port', '0'], { cwd: dir, env: { HOST: '0.0.0.0' } });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('refusing to listen on 0.0.0.0 without an API key');
    expect(keyless.stderr).toContain('the address came from the environment: HOST=0.0.0.0');
    // The settings file names crawlkit: it comes before the generic HOST a shell may export for something else.
    const settings = join(dir, 'loopback.json');
    writeFileSync(settings, JSON.stringify({ host: '127.0.0.1' }));
    const local = startCli(['serve', '--store', store, '--port', '0', '--engine', 'http', '--config', settings], {
      cwd: dir,
      env: { HOST: '0.0.0.0' },
    });
    let localOut = '';
    local.stdout!.on('data', (chunk: string) => (localOut += chunk));
    await until(() => localOut.includes('\n') || local.exitCode !== null, 30_000);
    local.kill('SIGTERM');
    await local.result;
    expect(localOut).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    const bad = await runCli(['serve', '--store', store], { cwd: dir, env: { CRAWLKIT_PORT: 'eighty' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Expected CRAWLKIT_PORT to be a whole number, got "eighty"');
  });

  it('warns at start when it has no Chromium to launch, and not with --engine http or a browser.wsEndpoint', async () => {
    // In the test's process, stopped as Ctrl-C stops it: three children cost ~1.2 s of CPU each to start.
    const started = async (args: string[]) => {
      const stopped = new AbortController();
      let stdout = '';
      let ended = false;
      const result = runCli(['serve', '--port', '0', '--store', mkdtempSync(join(dir, 'store-')), ...args], {
        cwd: dir,
        env: { CRAWLKIT_CHROMIUM: join(dir, 'no-chromium') },
        signal: stopped.signal,
        onStdout: (text) => (stdout += text),
      }).finally(() => (ended = true));
      await until(() => stdout.includes('\n') || ended, 30_000);
      stopped.abort();
      return result;
    };
    const auto = await started([]);
    expect(auto.code).toBe(0);
    expect(auto.stderr).toMatch(/^\S+Z warn Chromium not found at /m);
    expect(auto.stderr).toContain(`Chromium not found at ${join(dir, 'no-chromium')}`);
    expect(auto.stderr).toContain('pages that need JavaScript are read over HTTP only');
    const http = await started(['--engine', 'http', '--quiet']);
    expect(http.code).toBe(0);
    expect(http.stderr).not.toContain('Chromium');
    // A browser it connects to needs none here (the endpoint is asked for when a page needs it).
    const config = join(dir, 'remote-browser.json');
    writeFileSync(config, JSON.stringify({ browser: { wsEndpoint: 'ws://127.0.0.1:9/devtools/browser/x' } }));
    const remote = await started(['--config', config, '--quiet']);
    expect(remote.code).toBe(0);
    expect(remote.stderr).not.toContain('Chromium');
  });

  it('reads its keys from CRAWLKIT_API_KEY_FILE (a Docker or Kubernetes secret), and names a file it cannot use', async () => {
    const secret = join(dir, 'api-keys');
    writeFileSync(secret, `fc-file-one\nfc-file-two, fc-file-three\n\n`);
    const server = await serve([], { CRAWLKIT_API_KEY_FILE: secret });
    try {
      for (const key of ['fc-file-one', 'fc-file-two', 'fc-file-three']) {
        const answer = await fetch(`${server.url}/v2/team/queue-status`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(answer.status).toBe(200);
      }
      expect((await fetch(`${server.url}/v2/team/queue-status`)).status).toBe(401);
    } finally {
      await server.stop();
    }
    writeFileSync(secret, '\n');
    const empty = await runCli(['serve', '--port', '0'], { cwd: dir, env: { CRAWLKIT_API_KEY_FILE: secret } });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`CRAWLKIT_API_KEY_FILE (${secret}) holds no key`);
    const missing = join(dir, 'no-such-keys');
    const gone = await runCli(['serve', '--port', '0'], { cwd: dir, env: { CRAWLKIT_API_KEY_FILE: missing } });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(`Cannot read the keys of CRAWLKIT_API_KEY_FILE (${missing}): ENOENT`);
    // `#` comment lines and blank lines are skipped, as in many secret files.
    writeFileSync(secret, '# the team key\nfc-file-one\n\n  # rotated 2026-12\nfc-file-two\n');
    const commented = await serve([], { CRAWLKIT_API_KEY_FILE: secret });
    try {
      for (const key of ['fc-file-one', 'fc-file-two']) {
        const answer = await fetch(`${commented.url}/v2/team/queue-status`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(answer.status).toBe(200);
      }
    } finally {
      await commented.stop();
    }
    // A line with a space is blamed on the file and its line, not on --api-key (the server's check sees the merged list).
    writeFileSync(secret, 'fc-file-one\nthe team key\n');
    const spaced = await runCli(['serve', '--port', '0'], { cwd: dir, env: { CRAWLKIT_API_KEY_FILE: secret } });
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toContain(`CRAWLKIT_API_KEY_FILE (${secret}), line 2: a key is one word, with no spaces`);
    expect(spaced.stderr).not.toContain('--api-key');
  });

  it('names the flag, the variable or the settings file of a bad key', async () => {
    const flag = await runCli(['serve', '--port', '0', '--api-key', 'fc-good', '--api-key', 'fc bad'], { cwd: dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--api-key (the 2nd given): a key is one word, with no spaces; got "fc bad"');
    const empty = await runCli(['serve', '--port', '0', '--api-key', ''], { cwd: dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--api-key: a key is one word, with no spaces; got an empty one');
    const variable = await runCli(['serve', '--port', '0'], { cwd: dir, env: { CRAWLKIT_API_KEY: 'fc-a,fc b' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('CRAWLKIT_API_KEY, line 1: a key is one word, with no spaces');
    const settings = join(dir, 'bad-key-settings.json');
    writeFileSync(settings, JSON.stringify({ apiKeys: ['fc-ok', 'fc not ok'] }));
    const file = await runCli(['serve', '--port', '0', '--config', settings], { cwd: dir });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(settings);
    expect(file.stderr).toContain('a key is one word, with no spaces');
    expect(file.stderr).not.toContain('--api-key');
  });
});
