import { reasonOf } from '@crawlkit/actions';
import { withinBudget } from '@crawlkit/options/within-budget';
import type { Browser, CDPSession } from 'puppeteer-core';

import { BrowserError } from './errors.js';
import { closingPopups, describeBrowser, startedWithin, type LaunchedBrowser } from './launch.js';

/** Time given to closing the contexts we opened in a browser we only connected to, before disconnecting anyway. */
const CLOSE_CONTEXTS_MS = 3_000;

/**
 * The endpoint as messages name it: scheme, host, port and path, without credentials or a query (browserless and
 * similar services take their token there).
 */
export function describeEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return endpoint.replace(/\/\/[^/@]*@/, '//').replace(/\?.*/, '');
  }
}

/**
 * Connects to a Chromium someone else started (`browser.wsEndpoint`): a `ws:`/`wss:` DevTools endpoint, or an
 * `http:`/`https:` DevTools address whose `/json/version` names the current one (asked at every connection, so a
 * browser restarted on the same port is found again). Only the targets of the contexts this connection creates are
 * attached: the browser's other pages (another client's, the tabs it started with) are left alone, their popups too.
 * @throws BrowserError `BROWSER_CONNECT_FAILED` naming the endpoint and why.
 */
export async function connectBrowser(endpoint: string, timeoutMs: number): Promise<LaunchedBrowser> {
  const control: { browser?: Browser; existing?: Set<string>; session?: CDPSession } = {};
  const ours = (contextId: string | undefined): boolean =>
    contextId !== undefined &&
    control.browser !== undefined &&
    !control.existing?.has(contextId) &&
    control.browser.browserContexts().some((context) => context.id === contextId);
  try {
    const { default: puppeteer } = await import('puppeteer-core');
    const http = /^https?:/i.test(endpoint);
    const connecting = puppeteer.connect({
      ...(http ? { browserURL: endpoint } : { browserWSEndpoint: endpoint }),
      defaultViewport: null,
      targetFilter: closingPopups(() => control.session, ours),
    });
    // An endpoint that takes the TCP connection and never answers would hold every browser page.
    const message = `no answer within ${timeoutMs} ms (browser.launchTimeoutMs)`;
    control.browser = await startedWithin(connecting, timeoutMs, message, (late) => late.disconnect());
  } catch (error) {
    throw new BrowserError(
      'BROWSER_CONNECT_FAILED',
      `Could not connect to the browser at ${describeEndpoint(endpoint)} (browser.wsEndpoint): ${reasonOf(error)}. ` +
        'Check that it runs and that its DevTools endpoint is reachable from here, or drop browser.wsEndpoint ' +
        'to launch a Chromium of our own.',
      { cause: error },
    );
  }
  const browser = control.browser;
  const existing = new Set(
    browser.browserContexts().flatMap((context) => (context.id === undefined ? [] : [context.id])),
  );
  control.existing = existing;
  control.session = await browser
    .target()
    .createCDPSession()
    .catch(() => undefined);
  const connection = { endpoint, foreignContexts: existing };
  return { browser, pid: undefined, userDataDir: '', connection, ...(await describeBrowser(browser)) };
}

/**
 * Leaves a browser we connected to as we found it: the contexts this connection created (spare pages, pages of a
 * closing fetcher) are closed, then the connection; the browser itself keeps running.
 */
export async function disconnectBrowser(connected: LaunchedBrowser): Promise<void> {
  const { browser } = connected;
  const foreign = connected.connection?.foreignContexts;
  const own = browser.browserContexts().filter((context) => context.id !== undefined && !foreign?.has(context.id));
  const closing = Promise.all(own.map((context) => context.close().catch(() => undefined)));
  await withinBudget(closing, CLOSE_CONTEXTS_MS, () => undefined);
  await browser.disconnect().catch(() => undefined);
}
