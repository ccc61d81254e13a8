import { createRequire } from 'node:module';

import type * as Undici from 'undici';
import { describe, expect, it } from 'vitest';

import { Agent, buildConnector, Dispatcher, ProxyAgent } from './undici-agents.js';

describe('undici-agents', () => {
  it("are undici's own classes, with the request API its entry adds", () => {
    const require = createRequire(import.meta.url);
    const methods = (proto: object) => Object.getOwnPropertyDescriptors(proto);
    // Before undici's entry is loaded: the parts alone must be able to send a request and open a proxy's tunnel.
    expect(require.cache[require.resolve('undici')]).toBeUndefined();
    expect(typeof methods(Dispatcher.prototype)['request']?.value).toBe('function');
    expect(typeof methods(Dispatcher.prototype)['connect']?.value).toBe('function');
    const undici = require('undici') as typeof Undici;
    expect(Agent).toBe(undici.Agent);
    expect(ProxyAgent).toBe(undici.ProxyAgent);
    expect(Dispatcher).toBe(undici.Dispatcher);
    expect(buildConnector).toBe(undici.buildConnector);
  });
});
