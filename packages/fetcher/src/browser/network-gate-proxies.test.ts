/**
 * The network gate itself, without a browser: its proxies refuse what the URL policy refuses before connecting (every
 * loopback spelling, names resolving to one), keep few failures, and chain a user's upstream proxy behind the check.
 */
import { lookup as dnsLookup } from 'node:dns';
import { request } from 'node:http';
import type { LookupFunction } from 'node:net';

import { afterAll, describe, expect, it } from 'vitest';

import { startConnectProxy } from '../http/__fixtures__/connect-proxy.ts';
import { STRICT_URL_POLICY } from '../policy/url-policy.js';
import { useGateTargets } from './__fixtures__/gate-targets.ts';
import { connectVia } from './__fixtures__/via-proxy.ts';
import { NetworkGate } from './network-gate.js';

/** The refused port, on 127.0.0.1 and on [::1]. */
let targetPort: number;
let connections: string[] = [];
/** An allowed port: refused on the browser-wide proxy, reached through an upstream proxy. */
let controlPort: number;
let controlConnections = 0;
useGateTargets((targets) => ({ targetPort, controlPort, connections, controlConnections } = targets));

/** The status a plain-HTTP request for `url` gets from the proxy at `proxyUrl` (absolute form). */
function getVia(proxyUrl: string, url: string): Promise<number> {
  const proxy = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.hostname, port: Number(proxy.port), path: url, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the network gate itself (no browser)', () => {
  const gates: NetworkGate[] = [];
  afterAll(async () => {
    await Promise.all(gates.map((g) => g.close()));
  });
  const gateWith = (options: ConstructorParameters<typeof NetworkGate>[0]) => {
    const gate = new NetworkGate(options);
    gates.push(gate);
    return gate;
  };
  /** Resolves `loopback.test` to 127.0.0.1 and `mapped.test` to ::ffff:127.0.0.1; the rest as the system does. */
  const lookup: LookupFunction = (hostname, options, callback) => {
    const address = { 'loopback.test': '127.0.0.1', 'mapped.test': '::ffff:127.0.0.1' }[hostname];
    if (!address) return dnsLookup(hostname, options, callback);
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

  it('under strict, refuses every loopback spelling and name (hosts file, resolver) before connecting', async () => {
    const gate = gateWith({ policy: STRICT_URL_POLICY, lookup });
    const proxy = await gate.contextProxy();
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '[::7f00:1]', '0.0.0.0', 'vm', 'loopback.test']) {
      expect(await connectVia(proxy, `${host}:${targetPort}`), host).toBe(403);
      expect(await getVia(proxy, `http://${host}:${targetPort}/`), host).toBe(403);
    }
    expect(gate.tunnelError(`https://vm:${targetPort}/`, undefined, 0)).toMatchObject({
      code: 'URL_BLOCKED',
      rule: 'loopback',
    });
    expect(connections).toEqual([]);
  });

  it('compares addresses in their IPv4 form: blockedHosts 127.0.0.1 refuses a name resolving to ::ffff:127.0.0.1', async () => {
    const gate = gateWith({ policy: { blockedHosts: ['127.0.0.1'] }, lookup });
    const proxy = await gate.contextProxy();
    expect(await connectVia(proxy, `mapped.test:${targetPort}`)).toBe(403);
    expect(await connectVia(proxy, `[::ffff:127.0.0.1]:${targetPort}`)).toBe(403);
    expect(connections).toEqual([]);
    expect(await connectVia(proxy, `[::1]:${targetPort}`)).toBe(200);
    // The tunnel's 200 can come before the target's server has seen the connection: its event, not a time (100 ms).
    while (connections.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(connections).toEqual(['::1']);
  });

  it('keeps the failures of the last hosts only: a long crawl over many hosts stays flat', async () => {
    const gate = gateWith({ policy: { allowedHosts: ['only.test'] } });
    const proxy = await gate.contextProxy();
    const hosts = Array.from({ length: 1_200 }, (_, i) => `h${i}.test`);
    for (let i = 0; i < hosts.length; i += 100) {
      const statuses = await Promise.all(hosts.slice(i, i + 100).map((host) => connectVia(proxy, `${host}:443`)));
      expect(new Set(statuses)).toEqual(new Set([403]));
    }
    const kept = hosts.filter((host) => gate.tunnelError(`https://${host}/`, undefined, 0) !== undefined);
    // Each refusal is kept twice (by id and by host): 512 entries in all, the most recent.
    expect(kept).toEqual(hosts.slice(-256));
  });

  it('refuses everything on the browser-wide proxy (Chromium background traffic)', async () => {
    const gate = gateWith({ policy: {} });
    const background = await gate.backgroundProxy();
    expect(await connectVia(background, `127.0.0.1:${controlPort}`)).toBe(403);
    expect(await getVia(background, `http://127.0.0.1:${controlPort}/`)).toBe(403);
    expect(controlConnections).toBe(0);
  });

  it("chains a user's upstream proxy behind the check: refused targets never reach it", async () => {
    const upstream = await startConnectProxy();
    try {
      const gate = gateWith({ policy: { allowedPorts: [controlPort] } });
      const proxy = await gate.contextProxy({ upstream: upstream.url, proxyLoopback: true });
      expect(await connectVia(proxy, `127.0.0.1:${targetPort}`)).toBe(403);
      expect(await connectVia(proxy, `127.0.0.1:${controlPort}`)).toBe(200);
      expect(upstream.tunnels).toEqual([`127.0.0.1:${controlPort}`]);
      // Without proxyLoopback, loopback targets go direct, as Chromium's own bypass rule would send them.
      const bypass = await gate.contextProxy({ upstream: upstream.url });
      expect(await connectVia(bypass, `127.0.0.1:${controlPort}`)).toBe(200);
      expect(upstream.tunnels).toHaveLength(1);
      expect(connections).toEqual([]);
    } finally {
      await upstream.close();
    }
  });
});
