import { isInvalidOptionError } from '@crawlkit/options';
import { describe, expect, it } from 'vitest';

import { Fetcher } from './fetcher.js';
import { HttpEngine } from './http/http-engine.js';

function refused(build: () => unknown): Error {
  try {
    build();
  } catch (error) {
    expect(isInvalidOptionError(error)).toBe(true);
    expect(error).toBeInstanceOf(TypeError);
    return error as Error;
  }
  throw new Error('the options were accepted');
}

describe("the fetcher's options", () => {
  it('refuses a misspelt key at every level, naming its path', () => {
    expect(refused(() => new Fetcher({ urlPolicy: { allowPrivateNetwork: false } } as never)).message).toBe(
      'Invalid options of new Fetcher(): unknown option `urlPolicy.allowPrivateNetwork` (check the spelling)',
    );
    expect(refused(() => new Fetcher({ engnie: 'http' } as never)).message).toContain('`engnie`');
    expect(refused(() => new HttpEngine({ limits: { maxRedirect: 3 } } as never)).message).toContain(
      '`limits.maxRedirect`',
    );
  });

  it('refuses values out of range before any request', () => {
    expect(refused(() => new Fetcher({ browser: { maxPagesPerBrowser: 0 } })).message).toMatch(
      /`browser.maxPagesPerBrowser`.*got `0`/,
    );
    expect(refused(() => new HttpEngine({ connections: -1 })).message).toMatch(/`connections`.*got `-1`/);
    expect(refused(() => new HttpEngine({ limits: { maxCompressionRatio: 0 } })).message).toContain(
      '`limits.maxCompressionRatio`',
    );
    expect(refused(() => new Fetcher({ proxies: { stealth: ['::'] } })).message).toMatch(/proxy URL/);
  });

  it('refuses a host entry no host could match: a network, a URL, a port (the QA day: taken as names, in silence)', () => {
    expect(refused(() => new Fetcher({ urlPolicy: { allowedHosts: ['10.0.0.0/8'] } })).message).toContain(
      '`urlPolicy.allowedHosts.0`: `10.0.0.0/8` is a network, and the list takes hosts',
    );
    expect(refused(() => new Fetcher({ urlPolicy: { blockedHosts: ['http://wiki.corp/'] } })).message).toContain(
      '`http://wiki.corp/` is a URL: list its host alone (`wiki.corp`)',
    );
    expect(refused(() => new Fetcher({ urlPolicy: { allowedHosts: ['wiki.corp:8080'] } })).message).toContain(
      '`wiki.corp:8080` names a port: list the host alone (`wiki.corp`), and the port in allowedPorts',
    );
    // IPv6 addresses, bracketed or not, and wildcards are hosts.
    expect(
      () => new Fetcher({ urlPolicy: { allowedHosts: ['::1', '[::1]', '*.corp.example', '10.1.2.3'] } }),
    ).not.toThrow();
  });

  it('takes networks in allowedNetworks, only under allowPrivateNetworks: false', () => {
    expect(
      () =>
        new Fetcher({
          urlPolicy: { allowPrivateNetworks: false, allowedNetworks: ['10.1.0.0/16', 'fd12::/64', '10.9.8.7'] },
        }),
    ).not.toThrow();
    expect(
      refused(() => new Fetcher({ urlPolicy: { allowPrivateNetworks: false, allowedNetworks: ['wiki.corp'] } }))
        .message,
    ).toContain('`urlPolicy.allowedNetworks.0`: `wiki.corp` is not a network: write one in CIDR notation');
    expect(refused(() => new Fetcher({ urlPolicy: { allowedNetworks: ['10.1.0.0/16'] } })).message).toContain(
      '`urlPolicy.allowedNetworks`: allowedNetworks lists the private networks the strict policy lets through',
    );
  });

  it('refuses an engine of `engines` naming the member it lacks', () => {
    const close = async () => {};
    const fetch = async () => Promise.reject(new Error('unused'));
    expect(refused(() => new Fetcher({ engines: [{ name: 'folder', renders: false, close }] } as never)).message).toBe(
      'Invalid options of new Fetcher(): `engines.0`: Expected a PageEngine with name, renders, fetch and close: ' +
        '`fetch` is missing',
    );
    expect(
      refused(() => new Fetcher({ engines: [{ name: 'folder', renders: false, fetch, close: true }] } as never))
        .message,
    ).toMatch(/`engines.0`: .*: `close` is not a function/);
    for (const name of [42, '', 'my engine']) {
      expect(
        refused(() => new Fetcher({ engines: [{ name, renders: false, fetch, close }] } as never)).message,
      ).toMatch(/`engines.0.name`: Expected a name of letters, digits, `_` or `-`/);
    }
  });

  it('lists every problem at once, unknown keys first', () => {
    const message = refused(
      () => new Fetcher({ engine: 'turbo', browser: { args: 'x', prewam: true } } as never),
    ).message;
    expect(message.indexOf('`browser.prewam`')).toBeLessThan(message.indexOf('`engine`'));
    expect(message).toContain('`browser.args`');
  });

  it('refuses the launch options together with browser.wsEndpoint, and an endpoint that is no URL', () => {
    const wsEndpoint = 'ws://127.0.0.1:9222/devtools/browser/x';
    const message = refused(
      () => new Fetcher({ browser: { wsEndpoint, args: ['--lang=fr'], executablePath: '/usr/bin/chromium' } }),
    ).message;
    expect(message).toMatch(/`browser.args`: `args` applies to a Chromium crawlkit launches, and `wsEndpoint`/);
    expect(message).toContain('`browser.executablePath`');
    expect(refused(() => new Fetcher({ browser: { wsEndpoint, maxPagesPerBrowser: 5 } })).message).toContain(
      '`browser.maxPagesPerBrowser`',
    );
    expect(refused(() => new Fetcher({ browser: { wsEndpoint: '127.0.0.1:9222' } })).message).toMatch(
      /`browser.wsEndpoint`.*DevTools endpoint like/,
    );
  });

  it('accepts zero where zero means off', async () => {
    const engine = new HttpEngine({ limits: { maxRedirects: 0, lowSpeedBytesPerSec: 0 } });
    expect(engine.limits.maxRedirects).toBe(0);
    await engine.close();
  });
});
