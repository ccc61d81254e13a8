import type { LookupFunction } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../../../../fixtures/server.ts';
import { STRICT_URL_POLICY, type UrlPolicy } from '../policy/url-policy.js';
import { startConnectProxy, type TestProxy } from './__fixtures__/connect-proxy.ts';
import { failure } from './__fixtures__/http-site.ts';
import { HttpEngine } from './http-engine.js';
import type { HttpEngineOptions } from './types.js';

let server: FixtureServer;
let internet: TestProxy;
const engines: HttpEngine[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
  // Stands in for the internet: every tunnel ends at the fixture server, whatever host was asked for.
  internet = await startConnectProxy({ routeTo: { host: '127.0.0.1', port: server.port } });
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.close()));
  await Promise.all([server.close(), internet.close()]);
});

function engineWith(options: HttpEngineOptions): HttpEngine {
  const engine = new HttpEngine(options);
  engines.push(engine);
  return engine;
}

/** A lookup that answers every name with `addresses`, counting its calls. */
function fakeDns(...addresses: string[]): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname, options, callback) => {
    calls.push(hostname);
    const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    if (options.all) callback(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  }) as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

const requestsTo = (path: string) => server.requests.filter((r) => r.path.startsWith(path)).length;

describe('URL policy in the engine: strict preset', () => {
  it('refuses a loopback URL before any connection', async () => {
    const engine = engineWith({ urlPolicy: STRICT_URL_POLICY });
    const error = await failure(engine.fetch({ url: `${server.url}/http/json?strict-direct` }));
    expect(error.code).toBe('URL_BLOCKED');
    expect(error.rule).toBe('loopback');
    expect(error.message).toContain('rule "loopback"');
    expect(requestsTo('/http/json?strict-direct')).toBe(0);
  });

  it('refuses localhost without asking DNS', async () => {
    const lookup = fakeDns('127.0.0.1');
    const engine = engineWith({ urlPolicy: STRICT_URL_POLICY, lookup });
    const error = await failure(engine.fetch({ url: `http://localhost:${server.port}/` }));
    expect(error.rule).toBe('loopback');
    expect(lookup.calls).toEqual([]);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'metadata'],
    ['100.64.3.4', 'carrierGradeNat'],
    ['fd00::5', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
  ])('refuses a name that resolves to %s at connect time (%s)', async (address, rule) => {
    const lookup = fakeDns(address);
    const engine = engineWith({ urlPolicy: STRICT_URL_POLICY, lookup });
    const error = await failure(engine.fetch({ url: `http://innocent-looking.test:${server.port}/http/json?rebind` }));
    expect(error.code).toBe('URL_BLOCKED');
    expect(error.rule).toBe(rule);
    expect(error.message).toContain(address);
    expect(error.url).toBe(`http://innocent-looking.test:${server.port}/http/json?rebind`);
    expect(lookup.calls).toContain('innocent-looking.test');
    expect(requestsTo('/http/json?rebind')).toBe(0);
  });

  it('refuses a name when any of its addresses is private (no picking the public one)', async () => {
    const engine = engineWith({ urlPolicy: STRICT_URL_POLICY, lookup: fakeDns('8.8.8.8', '127.0.0.1') });
    const error = await failure(engine.fetch({ url: `http://mixed.test:${server.port}/` }));
    expect(error.rule).toBe('loopback');
  });

  it('checks every redirect hop: a public page redirecting to loopback or metadata is refused', async () => {
    const engine = engineWith({ urlPolicy: STRICT_URL_POLICY, lookup: fakeDns('8.8.8.8') });
    const via = (target: string) =>
      engine.fetch({
        url: `http://public.test/hostile/redirect-to?url=${encodeURIComponent(target)}`,
        proxy: internet.url,
      });

    // The set-up reaches the "internet": a redirect to another public name works.
    const fine = await via('http://other-public.test/http/json');
    expect(JSON.parse(fine.text!).name).toBe('café');
    expect(fine.redirects).toHaveLength(1);

    const cases: [string, string][] = [
      [`http://127.0.0.1:${server.port}/http/json`, 'loopback'],
      ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'metadata'],
      ['http://2852039166/latest/meta-data/', 'metadata'],
      ['http://0251.0376.0251.0376/', 'metadata'],
      ['http://[::ffff:a9fe:a9fe]/', 'metadata'],
      ['http://0x7f000001/', 'loopback'],
      ['http://localhost/', 'loopback'],
      ['http://10.0.0.1/', 'private'],
    ];
    for (const [target, rule] of cases) {
      const error = await failure(via(target));
      expect(error.code, target).toBe('URL_BLOCKED');
      expect(error.rule, target).toBe(rule);
    }
    expect(internet.tunnels.every((t) => t === 'public.test:80' || t === 'other-public.test:80')).toBe(true);
  });
});

describe('URL policy in the engine: with a proxy', () => {
  it('resolves and checks the name before handing it to the proxy, on every hop', async () => {
    const dns = fakeDns('10.1.2.3');
    const engine = engineWith({ urlPolicy: STRICT_URL_POLICY, lookup: dns });
    const before = internet.tunnels.length;
    const error = await failure(engine.fetch({ url: 'http://intranet.test/', proxy: internet.url }));
    expect(error).toMatchObject({ code: 'URL_BLOCKED', rule: 'private' });
    expect(dns.calls).toEqual(['intranet.test']);
    expect(internet.tunnels.length).toBe(before);

    const mapped = await failure(
      engineWith({ urlPolicy: { blockedHosts: ['127.0.0.1'] }, lookup: fakeDns('::ffff:127.0.0.1') }).fetch({
        url: 'http://alias.test/',
        proxy: internet.url,
      }),
    );
    expect(mapped).toMatchObject({ code: 'URL_BLOCKED', rule: 'blockedHosts' });
    expect(internet.tunnels.length).toBe(before);
  });

  it('fails a name that does not resolve locally with a DNS error, under a policy that checks addresses', async () => {
    const nowhere = ((_host, _options, callback) => {
      const error: NodeJS.ErrnoException = new Error('getaddrinfo ENOTFOUND nowhere.test');
      error.code = 'ENOTFOUND';
      callback(error, '', 4);
    }) as LookupFunction;
    const engine = engineWith({ urlPolicy: STRICT_URL_POLICY, lookup: nowhere });
    const error = await failure(engine.fetch({ url: 'http://nowhere.test/', proxy: internet.url }));
    expect(error.code).toBe('SCRAPE_DNS_RESOLUTION_ERROR');
  });
});

describe('URL policy in the engine: host and port rules', () => {
  it('applies blockedHosts to names and to the addresses they resolve to', async () => {
    const engine = engineWith({
      urlPolicy: { blockedHosts: ['*.evil.test', '127.0.0.1'] },
      lookup: fakeDns('127.0.0.1'),
    });
    expect((await failure(engine.fetch({ url: `http://www.evil.test:${server.port}/` }))).rule).toBe('blockedHosts');
    const viaName = await failure(engine.fetch({ url: `http://alias.test:${server.port}/` }));
    expect(viaName.rule).toBe('blockedHosts');
    expect(viaName.message).toContain('alias.test (127.0.0.1)');
  });

  it('applies allowedHosts on redirects too', async () => {
    const policy: UrlPolicy = { allowedHosts: ['127.0.0.1'] };
    const engine = engineWith({ urlPolicy: policy });
    expect((await engine.fetch({ url: `${server.url}/http/json` })).status).toBe(200);
    const target = encodeURIComponent(`http://localhost:${server.port}/http/json`);
    const error = await failure(engine.fetch({ url: `${server.url}/http/redirect/to?url=${target}` }));
    expect(error.rule).toBe('allowedHosts');
    expect(error.url).toBe(`http://localhost:${server.port}/http/json`);
  });

  it('applies allowedPorts', async () => {
    const open = engineWith({ urlPolicy: { allowedPorts: [server.port] } });
    expect((await open.fetch({ url: `${server.url}/http/json` })).status).toBe(200);
    const closed = engineWith({ urlPolicy: { allowedPorts: [80, 443] } });
    expect((await failure(closed.fetch({ url: `${server.url}/http/json` }))).rule).toBe('allowedPorts');
  });
});
