// Before a full-page capture: the images a page loads lazily, which Chromium fetches only near the viewport.
import type { Page } from 'puppeteer-core';

import { sleep } from './sleep.js';

/** The longest a full-page capture waits for the page's lazy images, in ms, when its caller has that much time. */
export const LAZY_IMAGES_MS = 3_000;

/**
 * In the page (a string: this package has no DOM types): every `<img loading="lazy">` made eager, then the images
 * that have not loaded yet waited for, each to its load or error, at most `ms`. Resolves to how many were waited for.
 */
const LOAD_LAZY_IMAGES = `(ms) => new Promise((resolve) => {
  const lazy = Array.from(document.images).filter((img) => img.loading === 'lazy');
  for (const img of lazy) img.loading = 'eager';
  const pending = lazy.filter((img) => !img.complete);
  let left = pending.length;
  if (left === 0) return resolve(0);
  const timer = setTimeout(() => resolve(pending.length), ms);
  const done = () => {
    if (--left > 0) return;
    clearTimeout(timer);
    resolve(pending.length);
  };
  for (const img of pending) {
    img.addEventListener('load', done, { once: true });
    img.addEventListener('error', done, { once: true });
  }
})`;

/**
 * Loads the images `page` defers with `loading="lazy"` (native lazy loading: WordPress puts it on every image), so
 * that a full-page screenshot shows them instead of blank boxes below the first screen; waits at most `ms`. Images a
 * script loads on scroll (`data-src` libraries) are not reached. A page that does not answer is captured as it is.
 */
export async function loadLazyImages(page: Page, ms: number): Promise<void> {
  if (ms <= 0) return;
  const load = page.evaluate(`(${LOAD_LAZY_IMAGES})(${Math.round(ms)})`).catch(() => undefined);
  // a page whose main thread is busy never answers the evaluate: the capture goes on at the same deadline
  await Promise.race([load, sleep(ms + 250)]);
}
