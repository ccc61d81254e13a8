import type { CDPSession, Page } from 'puppeteer-core';

import { DESKTOP_VIEWPORT } from './emulation.js';
import { guardPage, NO_DIALOGS_SCRIPT, NO_SERVICE_WORKERS_SCRIPT } from './page-guards.js';
import { MUTATION_OBSERVER_SCRIPT } from './smart-wait.js';

/**
 * Set-up every page gets whatever the scrape asks for, done before a scrape takes the page (on spare pages, while
 * nobody waits): its CDP session, the dialog, service-worker and DOM-change scripts, the dialog guard, TLS
 * errors ignored (v2's `skipTlsVerification: true`), the desktop viewport and request interception (no request is
 * made before the scrape attaches its handler). It reads no scrape option, so a prepared page suits every scrape;
 * a scrape changes what it asks otherwise (`skipTlsVerification: false`, `mobile`, headers, stealth, country) on
 * its own page. Returns the session, which must stay open for the page's life (CDP overrides last as long as it).
 */
export async function preparePage(page: Page): Promise<CDPSession> {
  const session = await page.createCDPSession();
  guardPage(page);
  await Promise.all([
    page.evaluateOnNewDocument(NO_DIALOGS_SCRIPT),
    page.evaluateOnNewDocument(NO_SERVICE_WORKERS_SCRIPT),
    page.evaluateOnNewDocument(MUTATION_OBSERVER_SCRIPT),
    session.send('Security.setIgnoreCertificateErrors', { ignore: true }),
    page.setViewport(DESKTOP_VIEWPORT),
    page.setRequestInterception(true),
  ]);
  return session;
}
