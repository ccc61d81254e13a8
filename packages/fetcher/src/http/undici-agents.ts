// undici's entry module loads all of undici: fetch, WebSocket, EventSource, the cache API, cookies and the mock
// agents, about 115 modules, and its cookies module reads `globalThis.Headers`, which makes Node load its own bundled
// copy of undici as well (together about 45 ms of `import('crawlkit')`). The HTTP engine runs none of that: it needs
// the two agents, their connector and the dispatcher's `request`. So it loads those parts of undici 7 the way
// undici's entry does (the entry adds the request API to the dispatcher's prototype; loading the entry later adds the
// same functions again).
// An undici whose files moved falls back to its entry; `undici-agents.test.ts` checks that the parts are the entry's
// own classes.
import { createRequire } from 'node:module';

import type * as Undici from 'undici';

interface Parts {
  Agent: typeof Undici.Agent;
  ProxyAgent: typeof Undici.ProxyAgent;
  Dispatcher: typeof Undici.Dispatcher;
  buildConnector: typeof Undici.buildConnector;
}

function loadParts(): Parts {
  const require = createRequire(import.meta.url);
  try {
    const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
    const agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
    const proxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent;
    const buildConnector = require('undici/lib/core/connect.js') as typeof Undici.buildConnector;
    Object.assign(dispatcher.prototype, require('undici/lib/api/index.js') as object);
    return { Agent: agent, ProxyAgent: proxyAgent, Dispatcher: dispatcher, buildConnector };
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    return require('undici') as typeof Undici;
  }
}

const parts = loadParts();

/** undici's `Agent`: keep-alive connection pools by origin. */
export const Agent = parts.Agent;
/** undici's `ProxyAgent`: the same, through an HTTP(S) proxy. */
export const ProxyAgent = parts.ProxyAgent;
/** undici's `Dispatcher` base class, carrying `request`, `stream`, `pipeline`, `upgrade` and `connect`. */
export const Dispatcher = parts.Dispatcher;
/** undici's `buildConnector`: the socket factory an `Agent` uses by default, to wrap. */
export const buildConnector = parts.buildConnector;
