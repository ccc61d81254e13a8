/**
 * The commands that fetch pages behind a forward proxy: `crawlkit scrape`, `map` and `crawl` read Firecrawl's
 * `PROXY_SERVER`, `PROXY_USERNAME` and `PROXY_PASSWORD` as `serve` does. The site's name (`shop.test`) is one only the
 * proxy reaches (it routes it to the fixture server), so a command that went around the proxy fails to resolve it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startConnectProxy, type TestProxy } from '../packages/fetcher/src/http/__fixtures__/connect-proxy.ts';
import { createCa, startSelfSignedServer } from '../packages/fetcher/src/http/__fixtures__/self-signed-server.ts';
import { runCli, type CliOptions } from './cli-helpers.ts';
import { useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();
/** A password with every character a URL gives a meaning to. */
const PASSWORD = 'p@ss:w%rd/?#';
let proxy: TestProxy;

beforeAll(async () => {
  proxy = await startConnectProxy({
    routeTo: { host: '127.0.0.1', port: site.server.port },
    credentials: `corp:${PASSWORD}`,
  });
});

afterAll(async () => {
  await proxy?.close();
});

/** The proxy variables of the machine's own, unset. */
const NO_PROXY = { PROXY_SERVER: undefined, PROXY_USERNAME: undefined, PROXY_PASSWORD: undefined };

const cli = (args: string[], env: Record<string, string>, options: Pick<CliOptions, 'process'> = {}) =>
  runCli([...args, '--store', site.store, '--engine', 'http'], {
    ...options,
    cwd: site.dir,
    env: { ...NO_PROXY, ...env },
  });

describe('the commands behind a forward proxy', () => {
  it('scrape, map and crawl go through PROXY_SERVER with PROXY_USERNAME and PROXY_PASSWORD', async () => {
    const env = { PROXY_SERVER: proxy.url.replace('http://', ''), PROXY_USERNAME: 'corp', PROXY_PASSWORD: PASSWORD };
    const scraped = await cli(['scrape', 'http://shop.test/articles/first-post.html', '--json'], env);
    expect(scraped.stderr).toBe('');
    expect(JSON.parse(scraped.stdout)).toMatchObject({ success: true, data: { metadata: { statusCode: 200 } } });
    const mapped = await cli(['map', 'http://shop.test/', '--json'], env);
    expect(mapped.code).toBe(0);
    expect(mapped.stdout).toContain('http://shop.test/');
    const crawled = await cli(['crawl', 'http://shop.test/', '--limit', '3', '--json'], env);
    expect(crawled.code).toBe(0);
    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(3);
    expect(proxy.tunnels.every((t) => t === 'shop.test:80')).toBe(true);
  });

  it('names PROXY_SERVER when it is not a proxy address', async () => {
    const result = await cli(['scrape', 'http://shop.test/'], { PROXY_SERVER: 'http://[bad' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PROXY_SERVER');
  });
});

describe("a company CA's certificates (NODE_EXTRA_CA_CERTS), behind the proxy", () => {
  it('loads a site of the CA, and tells a certificate for another host by its names', async () => {
    const ca = await createCa();
    const caFile = join(site.dir, 'company-ca.pem');
    writeFileSync(caFile, ca.cert);
    const servers = await Promise.all([
      startSelfSignedServer({ ca, host: 'corp.test' }),
      startSelfSignedServer({ ca, host: 'other.test' }),
    ]);
    // Each proxy takes corp.test to one of them: the name asked is the same, the certificate's differs.
    const proxies = await Promise.all(
      servers.map((s) => startConnectProxy({ routeTo: { host: '127.0.0.1', port: Number(new URL(s.url).port) } })),
    );
    try {
      const [right, wrong] = await Promise.all(
        proxies.map(async (p) => {
          // Node reads NODE_EXTRA_CA_CERTS when the process starts: the built command in a child. `--max-age 0`: both
          // share the site's store, and the one that answered first must not serve the other from the cache.
          const args = ['scrape', 'https://corp.test/', '--no-skip-tls-verification', '--max-age', '0', '--json'];
          const run = await cli(args, { NODE_EXTRA_CA_CERTS: caFile, PROXY_SERVER: p.url }, { process: true });
          return JSON.parse(run.stdout) as { success: boolean; code?: string; error?: string };
        }),
      );
      expect(right).toMatchObject({ success: true });
      expect(wrong).toMatchObject({ success: false, code: 'SCRAPE_SSL_ERROR' });
      expect(wrong!.error).toMatch(
        /^An SSL error occurred while scraping the URL\..* The site's certificate is for other\.test, not corp\.test \(ERR_TLS_CERT_ALTNAME_INVALID\)\.$/,
      );
    } finally {
      await Promise.all([...servers, ...proxies].map((s) => s.close()));
    }
  });
});
