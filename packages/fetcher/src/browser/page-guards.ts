import type { Page } from 'puppeteer-core';

/**
 * Runs in every document before its scripts: `alert`, `confirm`, `prompt` and `print` return at once, as if
 * dismissed, so a page cannot stall the renderer with dialogs.
 */
export const NO_DIALOGS_SCRIPT = `(() => {
  try {
    window.alert = () => undefined;
    window.confirm = () => false;
    window.prompt = () => null;
    window.print = () => undefined;
  } catch {}
})();`;

/**
 * Runs in every document before its scripts: service worker registration fails, so no worker outlives the page or
 * answers its requests from a cache (their traffic would still pass the network gate).
 */
export const NO_SERVICE_WORKERS_SCRIPT = `(() => {
  try {
    const container = navigator.serviceWorker;
    if (container) {
      Object.defineProperty(container, 'register', {
        value: () => Promise.reject(new DOMException('Service workers are disabled.', 'SecurityError')),
      });
    }
  } catch {}
})();`;

/**
 * Dismisses any dialog that still opens (`beforeunload`). Popups never reach a page here: the browser's target
 * filter (`launch.ts`) closes them as they open; downloads are refused by the context's download policy.
 */
export function guardPage(page: Page): void {
  page.on('dialog', (dialog) => {
    void dialog.dismiss().catch(() => undefined);
  });
}
