import type { CDPSession, Page } from 'puppeteer-core';

import { acceptLanguage, type CountryProfile } from './countries.js';
import { isLoopbackName } from './network-gate.js';

/** Desktop viewport, CSS pixels (the most common desktop resolution). */
export const DESKTOP_VIEWPORT = Object.freeze({ width: 1366, height: 768, deviceScaleFactor: 1 });
/** Phone viewport of `mobile: true` (a Pixel 8 class Android phone). */
export const MOBILE_VIEWPORT = Object.freeze({
  width: 412,
  height: 915,
  deviceScaleFactor: 2.625,
  isMobile: true,
  hasTouch: true,
});

export interface EmulationSettings {
  mobile: boolean;
  /** Country to look like (time zone, geolocation, default language). */
  country?: CountryProfile;
  /** Languages in order of preference; default: the country's locale, else none (Chromium's en-US). */
  languages?: readonly string[];
  /** Apply fingerprint evasions (UA without `Headless`, consistent client hints). */
  stealth: boolean;
  /** Chromium's user agent with `HeadlessChrome` spelled `Chrome`. */
  userAgent: string;
  /** Chromium's major version. */
  majorVersion: number;
  /** A `user-agent` from the request headers: it wins over everything. */
  requestUserAgent?: string;
  /** Origin granted the geolocation permission. */
  origin: string;
}

function mobileUserAgent(majorVersion: number): string {
  return `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${majorVersion}.0.0.0 Mobile Safari/537.36`;
}

function brands(majorVersion: number, full = false) {
  const version = full ? `${majorVersion}.0.0.0` : String(majorVersion);
  return [
    { brand: 'Chromium', version },
    { brand: 'Google Chrome', version },
    { brand: 'Not-A.Brand', version: full ? '99.0.0.0' : '99' },
  ];
}

/**
 * Applies the viewport, user agent (with matching client hints and `Accept-Language`), locale, time zone and
 * geolocation of `settings` to `page`, through `session` (kept open for the page's life: CDP overrides last as
 * long as the session that set them). The page already has the desktop viewport (`preparePage`): only the mobile
 * one is set here.
 */
export async function applyEmulation(page: Page, session: CDPSession, settings: EmulationSettings): Promise<void> {
  if (settings.mobile) await page.setViewport(MOBILE_VIEWPORT);

  const languages = settings.languages?.length
    ? settings.languages
    : settings.country
      ? [settings.country.locale]
      : undefined;
  const changesUserAgent = settings.mobile || settings.stealth || languages !== undefined;
  if (settings.requestUserAgent !== undefined || changesUserAgent) {
    const userAgent =
      settings.requestUserAgent ?? (settings.mobile ? mobileUserAgent(settings.majorVersion) : settings.userAgent);
    await session.send('Emulation.setUserAgentOverride', {
      userAgent,
      ...(languages ? { acceptLanguage: acceptLanguage(languages) } : {}),
      platform: settings.mobile ? 'Linux armv81' : 'Linux x86_64',
      userAgentMetadata: {
        brands: brands(settings.majorVersion),
        fullVersionList: brands(settings.majorVersion, true),
        platform: settings.mobile ? 'Android' : 'Linux',
        platformVersion: settings.mobile ? '14.0.0' : '6.1.0',
        architecture: settings.mobile ? '' : 'x86',
        model: settings.mobile ? 'Pixel 8' : '',
        mobile: settings.mobile,
      },
    });
  }
  if (languages) await session.send('Emulation.setLocaleOverride', { locale: languages[0]!.replace('_', '-') });
  if (settings.country) {
    await page.emulateTimezone(settings.country.timezone);
    // Geolocation exists only in secure contexts: Chromium refuses to grant it to a plain-HTTP site (where no page
    // could ask for it anyway), and that refusal failed the whole scrape.
    if (isSecureOrigin(settings.origin)) {
      await page.browserContext().overridePermissions(settings.origin, ['geolocation']);
      await page.setGeolocation({
        latitude: settings.country.latitude,
        longitude: settings.country.longitude,
        accuracy: 100,
      });
    }
  }
}

/** A potentially trustworthy origin as Chromium tells it: https, or a loopback host over http. */
function isSecureOrigin(origin: string): boolean {
  try {
    const { protocol, hostname } = new URL(origin);
    if (protocol === 'https:') return true;
    return protocol === 'http:' && isLoopbackName(hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
}
