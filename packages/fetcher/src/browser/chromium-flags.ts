/**
 * The constants of how crawlkit starts Chromium, in a module of their own: the package's index exports them, and a
 * fetcher that never opens a browser does not load the launcher (`launch.ts`) for them.
 */

/**
 * Flags every crawlkit Chromium starts with (besides puppeteer's own defaults and headless mode).
 * `--disable-site-isolation-trials`: with site isolation, a new page's blank renderer is not reused for its first
 * navigation, so every scrape started two renderer processes (half of Chromium's CPU per page, measured); without it
 * the navigation stays in that renderer. Scrapes stay apart: a renderer serves one browser context, and every scrape
 * has its own. What site isolation adds within one page (a cross-site frame in its own process) protects little under
 * `--no-sandbox`, where a compromised renderer is already out.
 */
export const CHROMIUM_FLAGS: readonly string[] = Object.freeze([
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--mute-audio',
  '--hide-scrollbars',
  '--disable-site-isolation-trials',
]);

/**
 * Prefix of the temporary profile directories (tests find stray processes by it), followed by the pid of the
 * process that launched the browser: each launch removes the profiles of processes that are gone.
 */
export const PROFILE_PREFIX = 'crawlkit-chromium-';
