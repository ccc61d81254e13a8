import type { Frame, HTTPRequest, Page } from 'puppeteer-core';

import { sleep } from './sleep.js';

/** How long a dropped navigation is given for another one (a redirect by script) to start in its place. */
const DROPPED_GRACE_MS = 250;

/**
 * Runs `input` (a click, a key press or a script) and, when it starts a navigation of the main frame within `graceMs`
 * (a number, or read once `input` is done), waits until the new document's DOM is ready (bounded by `timeoutMs`).
 * Returns whether a navigation happened.
 */
export async function followNavigation(
  page: Page,
  input: () => Promise<void>,
  graceMs: number | (() => number),
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  let navigating = false;
  const mainFrame = page.mainFrame();
  /** The main frame's latest navigation request, and when Chromium dropped it without a new document. */
  let latest: HTTPRequest | undefined;
  let droppedAt: number | undefined;
  const onRequest = (request: HTTPRequest) => {
    if (!request.isNavigationRequest() || request.frame() !== mainFrame) return;
    navigating = true;
    latest = request;
    droppedAt = undefined;
  };
  // A navigation answered by a download (an attachment) or a 204 is aborted and no document follows: the page stays.
  const onRequestFailed = (request: HTTPRequest) => {
    if (request === latest && request.failure()?.errorText === 'net::ERR_ABORTED') droppedAt = Date.now();
  };
  const onFrameNavigated = (frame: Frame) => {
    if (frame === mainFrame) navigating = true;
  };
  page.on('request', onRequest);
  page.on('requestfailed', onRequestFailed);
  page.on('framenavigated', onFrameNavigated);
  // Listening before the input catches navigations that commit before the input's promise settles.
  const stop = new AbortController();
  const stopOnAbort = () => stop.abort();
  signal?.addEventListener('abort', stopOnAbort, { once: true });
  const navigated = page
    .waitForNavigation({ waitUntil: 'domcontentloaded', timeout: Math.max(1, timeoutMs), signal: stop.signal })
    .then(
      () => true,
      () => false,
    );
  try {
    await input();
    const graceEnd = Date.now() + (typeof graceMs === 'number' ? graceMs : graceMs());
    while (!navigating && Date.now() < graceEnd && !signal?.aborted) await sleep(20);
    if (!navigating) return false;
    // Until the new document is ready, or the navigation was dropped and no other one started meanwhile.
    let ready = false;
    void navigated.then(() => (ready = true));
    while (!ready && !signal?.aborted) {
      if (droppedAt !== undefined && Date.now() - droppedAt >= DROPPED_GRACE_MS) return false;
      await Promise.race([navigated, sleep(20)]);
    }
    return true;
  } finally {
    stop.abort();
    signal?.removeEventListener('abort', stopOnAbort);
    page.off('request', onRequest);
    page.off('requestfailed', onRequestFailed);
    page.off('framenavigated', onFrameNavigated);
  }
}

/**
 * Runs `script` and tells whether it asked the main frame to navigate in this tab (a form's submit(), `location.href =
 * …`): Chromium reports the request before the script's evaluation answers, so knowing needs no grace period.
 */
export async function scriptNavigation<T>(
  page: Page,
  script: () => Promise<T>,
): Promise<{ requested: boolean; outcome: PromiseSettledResult<T> }> {
  const session = await page.createCDPSession();
  try {
    await session.send('Page.enable');
    const { frameTree } = await session.send('Page.getFrameTree');
    let requested = false;
    session.on('Page.frameRequestedNavigation', (event) => {
      if (event.frameId === frameTree.frame.id && event.disposition === 'currentTab') requested = true;
    });
    const [outcome] = await Promise.allSettled([script()]);
    return { requested, outcome };
  } finally {
    await session.detach().catch(() => undefined);
  }
}
