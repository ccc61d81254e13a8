import type { Frame, HTTPRequest, Page } from 'puppeteer-core';

import { sleep } from './sleep.js';

/**
 * Runs `input` (a click or key press) and, when it starts a navigation of the main frame within `graceMs`, waits
 * until the new document's DOM is ready (bounded by `timeoutMs`). Returns whether a navigation happened.
 */
export async function followNavigation(
  page: Page,
  input: () => Promise<void>,
  graceMs: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  let navigating = false;
  const mainFrame = page.mainFrame();
  const onRequest = (request: HTTPRequest) => {
    if (request.isNavigationRequest() && request.frame() === mainFrame) navigating = true;
  };
  const onFrameNavigated = (frame: Frame) => {
    if (frame === mainFrame) navigating = true;
  };
  page.on('request', onRequest);
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
    const graceEnd = Date.now() + graceMs;
    while (!navigating && Date.now() < graceEnd && !signal?.aborted) await sleep(20);
    if (!navigating) return false;
    await navigated;
    return true;
  } finally {
    stop.abort();
    signal?.removeEventListener('abort', stopOnAbort);
    page.off('request', onRequest);
    page.off('framenavigated', onFrameNavigated);
  }
}
