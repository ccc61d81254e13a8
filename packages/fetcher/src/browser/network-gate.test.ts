/**
 * Every channel a page has to the network goes through the gate: a page on 127.0.0.1 tries to reach a second local
 * port that the URL policy refuses, in every spelling, over every channel that page-level request interception never
 * sees, and the second port must see no connection at all. One Chromium for the whole file. The gate's proxies
 * without a browser: network-gate-proxies.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Fetcher } from '../index.js';
import { listen, useGateTargets } from './__fixtures__/gate-targets.ts';

/** Chromium resolves the loopback names itself (today's leak) and nothing else. */
const ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE vm'];

let pages: Server;
let pagePort: number;
/** The refused port, on 127.0.0.1 and on [::1]. */
let targetPort: number;
let connections: string[] = [];
/** An allowed port the same probes reach for: proof that each channel really ran, through the gate. */
let controlPort: number;
let controlConnections = 0;
useGateTargets((targets) => ({ targetPort, controlPort, connections, controlConnections } = targets));
/** An allowed port where nothing listens. */
let closedPort: number;
let fetcher: Fetcher;

/** Spellings of the refused port: IPv4, IPv6, IPv4-mapped, decimal, names (one from /etc/hosts), 0.0.0.0. */
const spellings = () => [
  `127.0.0.1:${targetPort}`,
  `[::1]:${targetPort}`,
  `[::ffff:7f00:1]:${targetPort}`,
  `2130706433:${targetPort}`,
  `localhost:${targetPort}`,
  `vm:${targetPort}`,
  `0.0.0.0:${targetPort}`,
];

const DONE = `document.body.insertAdjacentHTML('beforeend', '<p id="done">done</p>')`;

function html(script: string, head = ''): string {
  return `<!doctype html><html><head><title>probe</title>${head}</head><body><h1>Channel probe</h1>
<p>This page reaches for a port the URL policy refuses.</p><script>
const TARGETS = ${JSON.stringify(spellings())};
const CONTROL = '127.0.0.1:${controlPort}';
(async () => { try { ${script} } finally { ${DONE} } })();
</script></body></html>`;
}

/**
 * Opens a WebSocket to each target and waits until each has failed or closed: the event, not a time. The control's
 * closes once its server took the connection (and dropped the upgrade), so the control is counted before the page is
 * done; a refused one fails at the gate at once. (Raced against 3 s, a loaded machine's control socket was still
 * connecting when the page said done, and the case read no control connection.)
 */
const WEBSOCKETS = `await Promise.all([...TARGETS, CONTROL].map((t) => new Promise((resolve) => {
  try { const ws = new WebSocket('ws://' + t + '/socket'); ws.onerror = ws.onclose = resolve; } catch { resolve(); }
})));`;
/**
 * Fetches each target and waits until each has settled: a refused one fails at the gate at once, the control's is
 * answered. The workers that run this and the page that waits for their word wait for events, not a time: raced
 * against 3 s, a loaded machine's page could say done before a worker had reached the control.
 */
const FETCHES = `await Promise.all([...TARGETS, CONTROL].map((t) => fetch('http://' + t + '/data', { mode: 'no-cors' }).catch(() => {})));`;

const routes: Record<string, () => { type: string; body: string }> = {
  '/ready': () => ({ type: 'text/html', body: '<!doctype html><title>ready</title><p>ready</p>' }),
  '/websocket': () => ({ type: 'text/html', body: html(WEBSOCKETS) }),
  '/worker': () => ({
    type: 'text/html',
    body: html(`const w = new Worker('/worker.js'); await new Promise((r) => { w.onmessage = r; w.onerror = r; });`),
  }),
  '/worker.js': () => ({
    type: 'text/javascript',
    body: `const TARGETS = ${JSON.stringify(spellings())}; const CONTROL = '127.0.0.1:${controlPort}';
(async () => { ${WEBSOCKETS} ${FETCHES} postMessage('done'); })();`,
  }),
  '/shared-worker': () => ({
    type: 'text/html',
    body: html(`const w = new SharedWorker('/shared-worker.js'); w.port.start();
await new Promise((r) => { w.port.onmessage = r; w.onerror = r; });`),
  }),
  '/shared-worker.js': () => ({
    type: 'text/javascript',
    body: `const TARGETS = ${JSON.stringify(spellings())}; const CONTROL = '127.0.0.1:${controlPort}';
onconnect = async (e) => { const port = e.ports[0]; ${FETCHES} ${WEBSOCKETS} port.postMessage('done'); };`,
  }),
  '/popup': () => ({
    type: 'text/html',
    body: html(`for (const t of [...TARGETS, CONTROL]) window.open('http://' + t + '/popup-page', '_blank');
window.open('http://' + CONTROL + '/noopener', '_blank', 'noopener');
await new Promise((r) => setTimeout(r, 1500));`),
  }),
  '/meta-refresh': () => ({
    type: 'text/html',
    body: `<!doctype html><meta http-equiv="refresh" content="0; url=http://localhost:${targetPort}/internal"><h1>Moved</h1>`,
  }),
  '/js-redirect': () => ({
    type: 'text/html',
    body: `<!doctype html><h1>Moving</h1><script>setTimeout(() => { location.href = 'http://[::ffff:7f00:1]:${targetPort}/internal'; }, 100);</script>`,
  }),
  '/webrtc': () => ({
    type: 'text/html',
    body: html(`const iceServers = [...TARGETS, CONTROL].map((t) => ({ urls: 'turn:' + t + '?transport=tcp', username: 'u', credential: 'p' }));
const pc = new RTCPeerConnection({ iceServers, iceTransportPolicy: 'relay' });
pc.createDataChannel('probe');
await pc.setLocalDescription(await pc.createOffer());
await new Promise((r) => { pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && r(); });
pc.close();`),
  }),
  '/preconnect': () => ({
    type: 'text/html',
    body: html(
      `for (const t of TARGETS) {
  for (const crossOrigin of [null, 'anonymous']) {
    const link = document.createElement('link');
    link.rel = 'preconnect';
    link.href = 'http://' + t;
    if (crossOrigin) link.crossOrigin = crossOrigin;
    document.head.append(link);
  }
}
await new Promise((r) => setTimeout(r, 1500));`,
      spellings()
        .map((t) => `<link rel="preconnect" href="http://${t}"><link rel="preconnect" href="https://${t}" crossorigin>`)
        .join(''),
    ),
  }),
  '/service-worker': () => ({
    type: 'text/html',
    body: html(`if (!('serviceWorker' in navigator)) return;
const done = new Promise((r) => navigator.serviceWorker.addEventListener('message', r));
try { await navigator.serviceWorker.register('/sw.js'); } catch { return; }
await done;`),
  }),
  '/sw.js': () => ({
    type: 'text/javascript',
    body: `const TARGETS = ${JSON.stringify(spellings())}; const CONTROL = '127.0.0.1:${controlPort}';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil((async () => {
  ${FETCHES} ${WEBSOCKETS}
  for (const c of await self.clients.matchAll({ includeUncontrolled: true })) c.postMessage('done');
})()));`,
  }),
};

beforeAll(async () => {
  pages = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (!route) return void res.writeHead(404).end();
    const { type, body } = route();
    const link = spellings()
      .map((t) => `<http://${t}>; rel=preconnect`)
      .join(', ');
    res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store', link }).end(body);
  });
  pagePort = await listen(pages, '127.0.0.1');
  closedPort = await portNobodyListensOn();
  fetcher = new Fetcher({
    engine: 'browser',
    urlPolicy: { allowedHosts: ['127.0.0.1'], allowedPorts: [pagePort, controlPort, closedPort] },
    browser: { args: ARGS },
  });
  // Chromium's launch waited for here, under the hook's time: the first case's 20 s are its page's alone (a loaded
  // machine's launch took most of them).
  await fetcher.fetch({ url: `http://127.0.0.1:${pagePort}/ready`, timeoutMs: 55_000 });
});

/**
 * A port nothing listens on, below Linux's ephemeral range (32768-60999) so that no `listen(0)` takes it meanwhile: a
 * port freed by a closed server was taken again by the gate's own proxy under load (the "refused" page answered 400
 * from ProxyChain). Not port 1: Chromium refuses it as unsafe before connecting.
 */
async function portNobodyListensOn(): Promise<number> {
  for (let port = 20_000 + Math.floor(Math.random() * 10_000); ; port++) {
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => probe.close(resolve));
      return port;
    }
  }
}

afterAll(async () => {
  await fetcher?.close();
  pages?.closeAllConnections();
  await new Promise((resolve) => pages?.close(resolve));
});

/** Loads the probe page until it says it is done, then gives stray connections a moment to arrive. */
async function probe(path: string): Promise<string> {
  const result = await fetcher.fetch({
    url: `http://127.0.0.1:${pagePort}${path}`,
    actions: [{ type: 'wait', selector: '#done' }],
    timeoutMs: 20_000,
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  return result.text ?? '';
}

describe('the network gate: no channel reaches a refused port', () => {
  it.each([
    ['WebSocket from the page', '/websocket'],
    ['WebSocket and fetch from a dedicated worker', '/worker'],
    ['fetch and WebSocket from a SharedWorker', '/shared-worker'],
    ['WebRTC TURN over TCP (through a CONNECT tunnel)', '/webrtc'],
  ])('%s: refused in every spelling, the allowed port still served', async (_name, path) => {
    const text = await probe(path);
    expect(text).toContain('Channel probe');
    expect(connections).toEqual([]);
    expect(controlConnections).toBeGreaterThan(0);
  });

  it('window.open popups (their GET and favicon): closed before they load, even an allowed one', async () => {
    await probe('/popup');
    expect(connections).toEqual([]);
    expect(controlConnections).toBe(0);
  });

  it('preconnect (markup, Link header, script-inserted)', async () => {
    await probe('/preconnect');
    expect(connections).toEqual([]);
  });

  it('a service worker (127.0.0.1 is a secure context): registration refused, nothing reached', async () => {
    const text = await probe('/service-worker');
    expect(text).toContain('Channel probe');
    expect(connections).toEqual([]);
    expect(controlConnections).toBe(0);
  });
});

describe('navigations of the main frame to a refused URL', () => {
  it.each([
    ['a meta refresh', '/meta-refresh'],
    ['a script setting location', '/js-redirect'],
  ])('%s fails with URL_BLOCKED, never a success holding the error page', async (_name, path) => {
    await expect(
      fetcher.fetch({ url: `http://127.0.0.1:${pagePort}${path}`, timeoutMs: 15_000 }),
    ).rejects.toMatchObject({
      code: 'URL_BLOCKED',
    });
    expect(connections).toEqual([]);
  });
});

describe('failures behind the gate keep their codes', () => {
  it('a refused connection is SCRAPE_CONNECTION_ERROR over HTTP and HTTPS, not a page holding the gate answer', async () => {
    for (const scheme of ['http', 'https']) {
      await expect(
        fetcher.fetch({ url: `${scheme}://127.0.0.1:${closedPort}/`, timeoutMs: 30_000 }),
        scheme,
      ).rejects.toMatchObject({ code: 'SCRAPE_CONNECTION_ERROR' });
    }
  });

  it('a refused main URL is URL_BLOCKED before any connection', async () => {
    await expect(fetcher.fetch({ url: `http://localhost:${targetPort}/` })).rejects.toMatchObject({
      code: 'URL_BLOCKED',
    });
    expect(connections).toEqual([]);
  });
});
