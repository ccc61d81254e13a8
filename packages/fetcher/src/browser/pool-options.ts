/** Settings of the browser pool (the `browser` field of `FetcherOptions`). */
export interface BrowserPoolOptions {
  /**
   * A Chromium that is already running, to connect to instead of launching one: its DevTools endpoint
   * (`ws://host:port/devtools/browser/<id>`, as puppeteer's `browser.wsEndpoint()` gives it, or a service's such as
   * browserless's `ws://host:3000?token=...`), or its `http://host:port` DevTools address (the current endpoint is
   * asked for at every connection, so a browser restarted on the same port is found). It is never closed: closing the
   * fetcher closes the contexts it opened there and disconnects. A lost connection fails the pages on it
   * (`BROWSER_CRASHED`, naming the endpoint) and the next page connects again (`BROWSER_CONNECT_FAILED` while it
   * cannot). The browser must reach this process's network gate on 127.0.0.1 (pages go through it): the same machine,
   * or a container on the host's network. Launch options (`executablePath`, `args`, `maxPagesPerBrowser`) are refused
   * with it.
   * @default undefined (launch a Chromium of our own)
   */
  wsEndpoint?: string;
  /**
   * Chromium executable, launched as named. Unset: `$CRAWLKIT_CHROMIUM`, then `/usr/bin/chromium`, `chromium-browser`,
   * `google-chrome` (and those names on `$PATH`); one found that is a shell launcher (Debian's) is replaced by the
   * binary it `exec`s.
   * @default undefined (auto-detected)
   */
  executablePath?: string;
  /**
   * Extra Chromium flags, after crawlkit's own (`--no-sandbox --disable-gpu --disable-dev-shm-usage ...`).
   * @default []
   */
  args?: string[];
  /**
   * Pages one browser serves before it is replaced by a fresh one (bounds memory growth and leaks). Launched browsers
   * only.
   * @default 100
   */
  maxPagesPerBrowser?: number;
  /**
   * How long an unused browser stays up before it is closed, in milliseconds; the next page starts a new one. A
   * browser of `wsEndpoint` is disconnected from instead (our contexts closed), and connected to again.
   * @default 30000
   */
  idleTimeoutMs?: number;
  /**
   * Pages open at once; further requests wait for a free slot (within their own timeout).
   * @default 4
   */
  maxConcurrentPages?: number;
  /**
   * Time for Chromium to start (or to connect to `wsEndpoint`), in milliseconds.
   * @default 30000
   */
  launchTimeoutMs?: number;
  /**
   * After Chromium fails to start (or the connection to `wsEndpoint` fails), how long every page is given that
   * failure at once (`BROWSER_LAUNCH_FAILED` or `BROWSER_CONNECT_FAILED`, with its reason) instead of a new try; the
   * first page after it tries again. Under `engine: 'auto'` those pages go over HTTP without waiting for a launch that
   * fails again.
   * @default 30000
   */
  launchRetryMs?: number;
  /**
   * Keep spare pages (each in its own fresh context, never used before, already set up as every page is: scripts,
   * guards, request interception) open, so that requests without a proxy skip the page start and its set-up (a new
   * renderer process and a dozen CDP calls: about 100-400 ms, more under load). One spare while pages run, and as many
   * as the browser has had pages open at once (up to `maxConcurrentPages`) while it waits: the renderers open never
   * exceed that peak plus one, as with a single spare. Costs idle renderers while the browser runs.
   * @default true
   */
  prewarm?: boolean;
  /**
   * Directory where screenshots and action PDFs are written as files (their paths are returned instead of
   * base64 `data:` URLs).
   * @default undefined (data URLs)
   */
  screenshotDir?: string;
}

/** The defaults of `BrowserPoolOptions` the pool applies. */
export const DEFAULTS = {
  maxPagesPerBrowser: 100,
  idleTimeoutMs: 30_000,
  maxConcurrentPages: 4,
  launchTimeoutMs: 30_000,
  launchRetryMs: 30_000,
  prewarm: true,
};
