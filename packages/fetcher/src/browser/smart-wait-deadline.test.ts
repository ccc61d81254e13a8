/**
 * The smart wait ends when its time does, whatever the page: a question to a page busy in a script is not waited for
 * past the wait's end (the capture after it has only the time the wait left).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { BrowserContext } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { ISOLATED_ARGS } from '../../../../test/helpers/scrape.ts';
import { sharedBrowserEndpoint } from '../../../../test/setup/shared-browser.ts';
import { connectBrowser, disconnectBrowser } from './connect.js';
import { destroyBrowser, launchBrowser, type LaunchedBrowser } from './launch.js';
import { MUTATION_OBSERVER_SCRIPT, NetworkMonitor, smartWait } from './smart-wait.js';

const CHROMIUM = process.env.CRAWLKIT_CHROMIUM ?? '/usr/bin/chromium';

// Busy in a script for 3 s from 200 ms after it loads, then tells the server.
const BUSY = `<!doctype html><title>Busy</title><p>Working</p><script>
  setTimeout(() => { const end = Date.now() + 3000; while (Date.now() < end); fetch('/done'); }, 200);
</script>`;

let server: Server;
let base: string;
let done = false;
let launched: LaunchedBrowser;
let shared = false;
let context: BrowserContext;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/done') done = true;
    res.writeHead(200, { 'content-type': 'text/html' }).end(BUSY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const endpoint = await sharedBrowserEndpoint();
  shared = endpoint !== undefined;
  launched = shared
    ? await connectBrowser(endpoint!, 30_000)
    : await launchBrowser({ executablePath: CHROMIUM, args: ISOLATED_ARGS, timeoutMs: 30_000 });
  context = await launched.browser.createBrowserContext({ proxyServer: 'direct://' });
});

afterAll(async () => {
  await context?.close();
  if (shared) await disconnectBrowser(launched);
  else if (launched) await destroyBrowser(launched);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

it('ends with its time when the page is too busy to answer', async () => {
  const page = await context.newPage();
  await page.evaluateOnNewDocument(MUTATION_OBSERVER_SCRIPT);
  const network = new NetworkMonitor(page);
  await page.goto(`${base}/busy`, { waitUntil: 'domcontentloaded' });
  const settled = await smartWait(page, network, 1_500);
  // Before: the question asked as the network went quiet was answered once the script ended, 3 s in, and the wait
  // said the page had settled then, its budget long spent.
  expect(settled).toBe(false);
  expect(done).toBe(false);
  await page.close();
}, 20_000);
