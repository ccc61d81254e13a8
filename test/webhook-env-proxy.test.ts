/**
 * Webhooks behind a corporate proxy: they follow Node's rule for its own `fetch` (as the model's calls do), through
 * `HTTP_PROXY` / `HTTPS_PROXY` when `NODE_USE_ENV_PROXY=1`, unless `NO_PROXY` names the host. The receiver's name
 * (`hooks.test`) is one only the proxy reaches, so a delivery that went around it fails.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Crawlkit } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startConnectProxy, type TestProxy } from '../packages/fetcher/src/http/__fixtures__/connect-proxy.ts';
import { useFixtureServer } from './helpers/fixture-engine.ts';

const fixture = useFixtureServer();
const ENV = ['NODE_USE_ENV_PROXY', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'] as const;
let receiver: Server;
let proxy: TestProxy;
const events: string[] = [];
let onEvent = () => {};
const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      events.push((JSON.parse(body) as { type: string }).type);
      res.end('{}');
      onEvent();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  proxy = await startConnectProxy({ routeTo: { host: '127.0.0.1', port: (receiver.address() as AddressInfo).port } });
});

afterAll(async () => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await proxy?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhooks behind a forward proxy', () => {
  it("go through HTTP_PROXY under NODE_USE_ENV_PROXY=1, as Node's fetch does", async () => {
    for (const name of ENV) delete process.env[name];
    Object.assign(process.env, {
      NODE_USE_ENV_PROXY: '1',
      HTTP_PROXY: proxy.url,
      NO_PROXY: 'localhost,.internal.test',
    });
    const ck = new Crawlkit({ store: 'memory', engine: 'http', webhooks: { maxAttempts: 1 } });
    try {
      const delivered = new Promise<void>(
        (resolve) => (onEvent = () => events.includes('batch_scrape.completed') && resolve()),
      );
      const batch = await ck.batchScrape({
        urls: [`${fixture.server.url}/articles/first-post.html`],
        webhook: { url: 'http://hooks.test/receive' },
      });
      if (!batch.success) throw new Error(batch.error);
      await delivered;
      expect(events).toContain('batch_scrape.started');
      // Only the webhook's: the page itself went direct, as pages follow `proxies` only.
      expect(proxy.tunnels.length).toBeGreaterThan(0);
      expect(proxy.tunnels.every((t) => t === 'hooks.test:80')).toBe(true);
    } finally {
      await ck.close();
    }
  });
});
