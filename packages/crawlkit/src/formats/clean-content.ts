/**
 * `onlyCleanContent` (2026): the whole page without its furniture (navigation, ads, cookie banners), where
 * `onlyMainContent` cuts the page down to its main content. Implemented as removal rules the extractor applies like
 * `excludeTags`, over the whole page: header, footer, sidebars and related content stay.
 */

/** Navigation: menus, breadcrumbs and skip links. */
const NAVIGATION = [
  'nav',
  '[role=navigation]',
  '.navbar',
  '.navigation',
  '#nav',
  '.breadcrumb',
  '.breadcrumbs',
  '#breadcrumbs',
  '[aria-label=breadcrumb i]',
  '.skip-link',
  'a[href="#content"]',
  'a[href="#main"]',
  'a[href="#main-content"]',
];

/** Advertising slots of the common ad servers, and elements named as ads. */
const ADS = [
  '.ad',
  '.ads',
  '.advert',
  '.advertisement',
  '#ad',
  'ins.adsbygoogle',
  '[id^=google_ads]',
  '[id^=div-gpt-ad]',
  '[data-ad-slot]',
  '[data-ad-unit]',
  '[data-ad]',
  'iframe[src*=doubleclick]',
  'iframe[src*=googlesyndication]',
];

/**
 * Cookie and consent banners: the consent platforms' own containers, and elements whose id or class names a cookie
 * banner, notice or consent (not any `cookie` class: a recipe site's `.cookie-recipe` is content).
 */
const COOKIE_BANNERS = [
  '#onetrust-consent-sdk',
  '#onetrust-banner-sdk',
  '#CybotCookiebotDialog',
  '#usercentrics-root',
  '#cookiescript_injected',
  '.qc-cmp2-container',
  '.cc-window',
  '.cc-banner',
  '.cookie',
  '#cookie',
  '[id*=cookie-banner i]',
  '[class*=cookie-banner i]',
  '[id*=cookie-consent i]',
  '[class*=cookie-consent i]',
  '[id*=cookie-notice i]',
  '[class*=cookie-notice i]',
  '[id*=cookie-bar i]',
  '[class*=cookie-bar i]',
  '[class*=consent-banner i]',
  '[id*=consent-banner i]',
  '[aria-label*=cookie i][role=dialog]',
  '[aria-label*=consent i][role=dialog]',
];

/**
 * What `onlyCleanContent` removes, as one selector list (the extractor walks the page once for it, not once per
 * rule).
 */
export const CLEAN_CONTENT_SELECTORS: readonly string[] = [[...NAVIGATION, ...ADS, ...COOKIE_BANNERS].join(', ')];
