import type { CDPSession, Page } from 'puppeteer-core';

import type { BrowserFetchRequest } from './browser-engine.js';
import type { BrowserLease } from './browser-pool.js';
import { applyEmulation, DESKTOP_VIEWPORT } from './emulation.js';
import { guardPage, NO_DIALOGS_SCRIPT, NO_SERVICE_WORKERS_SCRIPT } from './page-guards.js';
import { MUTATION_OBSERVER_SCRIPT } from './smart-wait.js';
import { stealthScript } from './stealth.js';

/** What `prepareForRequest` reads of a request. */
type RequestSettings = Pick<
  BrowserFetchRequest,
  'headers' | 'stealth' | 'languages' | 'country' | 'skipTlsVerification' | 'mobile'
>;

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

/**
 * Sets the page up for what `request` asks beyond v2's defaults (`preparePage`): its headers (a `User-Agent` among
 * them goes to the emulation), stealth, TLS verification, the device, country and languages.
 */
export async function prepareForRequest(
  page: Page,
  session: CDPSession,
  lease: Pick<BrowserLease, 'userAgent' | 'majorVersion'>,
  request: RequestSettings,
  target: URL,
): Promise<void> {
  const headers = { ...request.headers };
  let requestUserAgent: string | undefined;
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === 'user-agent') {
      requestUserAgent = headers[name];
      delete headers[name];
    }
  }
  // The page comes set up for v2's defaults (`preparePage`): only what this request asks otherwise is sent.
  await Promise.all([
    request.stealth
      ? page.evaluateOnNewDocument(
          stealthScript(request.languages ?? (request.country ? [request.country.locale] : [])),
        )
      : undefined,
    request.skipTlsVerification ? undefined : session.send('Security.setIgnoreCertificateErrors', { ignore: false }),
    Object.keys(headers).length ? page.setExtraHTTPHeaders(headers) : undefined,
    applyEmulation(page, session, {
      mobile: request.mobile,
      stealth: request.stealth,
      userAgent: lease.userAgent,
      majorVersion: lease.majorVersion,
      origin: target.origin,
      ...(request.country ? { country: request.country } : {}),
      ...(request.languages ? { languages: request.languages } : {}),
      ...(requestUserAgent === undefined ? {} : { requestUserAgent }),
    }),
  ]);
}
