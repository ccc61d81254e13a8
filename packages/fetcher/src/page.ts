/** What a `Fetcher` takes and gives back for one page. */
import type { Action, ActionResults, ScreenshotSettings } from '@crawlkit/actions';

import type { FetchResult, HttpRequest } from './http/types.js';
import type { RenderJudge, RenderVerdict } from './render/judge.js';

/**
 * Which engine loads a page. `auto`: HTTP when enough, the browser when the options or the page need it. Engines
 * given in `FetcherOptions.engines` are chosen by their own name.
 */
export type EngineName = 'auto' | 'http' | 'browser';
/** v2's proxy modes (`enhanced` is accepted as an alias of `stealth`). */
export type ProxyMode = 'basic' | 'stealth' | 'auto' | 'enhanced';

/** One page to fetch, with the v2 scrape options that shape the fetch. */
export interface PageRequest<V extends RenderVerdict = RenderVerdict> extends Omit<
  HttpRequest,
  'proxy' | 'method' | 'body'
> {
  /**
   * Emulate a phone: 412×915 viewport at 2.625 device pixels, touch, an Android Chrome user agent and client hints.
   * @default false
   */
  mobile?: boolean;
  /**
   * Look like a visitor from `country` (ISO 3166-1 alpha-2; `us-generic` means US): its time zone, geolocation,
   * locale and `Accept-Language` (from `languages`, else the country's locale), and its proxy when configured.
   */
  location?: { country?: string; languages?: string[] };
  /**
   * Extra wait after the smart wait (network and DOM idle) before capture, in milliseconds.
   * @default 0
   */
  waitFor?: number;
  /**
   * The timeout the browser's messages name when `timeoutMs` is what is left of it (a page its caller fetches again
   * within one timeout).
   * @default timeoutMs
   */
  statedTimeoutMs?: number;
  /** Take a screenshot of the final page (v2's screenshot format). */
  screenshot?: ScreenshotSettings;
  /** v2 page actions, run after the page settled (reference §5); taken as typed (`validateActions` checks JSON). */
  actions?: Action[];
  /**
   * Load the page's images in the browser although no screenshot is taken: for a caller that measures the rendered
   * page (the `branding` format's logo sizes). Without it, a browser page that takes no screenshot and no PDF never
   * loads its images, media or fonts (`pagePictures`); the HTTP engine never loads them at all.
   * @default false
   */
  loadImages?: boolean;
  /**
   * Take a screenshot of the page when an action fails (the error's `details.screenshot`, a file under
   * `browser.screenshotDir` when set). Off for a caller with nowhere to keep it: a job page's error is stored without
   * `details`, so its capture would cost up to a second of the page's time, and leave a file nothing points to.
   * @default true
   */
  actionFailureScreenshot?: boolean;
  /**
   * Block ads, trackers and consent managers, dismiss cookie banners.
   * @default true
   */
  blockAds?: boolean;
  /**
   * `basic`: direct or a basic proxy. `stealth`: the browser with fingerprint evasions and a stealth proxy when
   * configured. `auto`: basic first, then stealth when the site refuses (403, challenge page; a 429 only when a
   * stealth proxy gives another address).
   * @default 'auto'
   */
  proxy?: ProxyMode;
  /**
   * Force the engine for this request: a built-in one, or one given in `FetcherOptions.engines` by its name.
   * @default the fetcher's `engine` option
   */
  engine?: EngineName | (string & {});
  /**
   * In `auto`, render a page whose HTML looks client-rendered (see `judgeRendering`). `false` keeps such a page on
   * HTTP (a fast mode): `clientRendered` then says what the judge saw. Browser-only options still use the browser.
   * @default true
   */
  renderIfNeeded?: boolean;
  /**
   * This request's render judge, in place of the fetcher's `renderJudge` (a caller that extracts the page where it
   * judges it, say).
   * @default the fetcher's `renderJudge`
   */
  renderJudge?: RenderJudge<V>;
  /**
   * What the caller learned about the page's host (crawlkit's engine learning in a crawl or batch): `'browser'` sends
   * the page straight to the browser in `auto` (`engineReason: 'js-required:host'`), skipping the HTTP attempt.
   * @default undefined (HTTP, then the render judge)
   */
  hostNeeds?: 'browser';
  /**
   * With `hostNeeds: 'browser'`: fetch the page both ways (over HTTP, judged, and in the browser) so that
   * `engineEvidence` tells whether HTTP would have done.
   * @default false
   */
  checkEngines?: boolean;
  /**
   * Told when a browser load starts waiting for one of the browser's pages (`browser.maxConcurrentPages`) and when it
   * has one. A caller that gives it keeps the clock of that wait (a wait for a shared page, no part of this one): the
   * load's `timeoutMs` then counts from the page it got, not from the call.
   * @default undefined (the wait counts against `timeoutMs`)
   */
  browserSlot?: BrowserSlotWait;
  /**
   * Called with the page's answer (its final status and headers) as soon as the engine has it, before the render
   * judge reads the page: a crawl rests the host of a 429 from here, not once the page is extracted. Synchronous; it
   * must not throw.
   * @default undefined
   */
  onAnswer?: (answer: PageAnswer) => void;
  /**
   * Called when the browser starts the page's `actions` (after its load and waits): a caller's timeout then says
   * the page was running them. Synchronous; it must not throw.
   * @default undefined
   */
  onActions?: () => void;
}

/** What `PageRequest.onAnswer` is told of a page's answer. */
export interface PageAnswer {
  status: number;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
}

/** The hooks of `PageRequest.browserSlot`. */
export interface BrowserSlotWait {
  /** The load waits for a free browser page. */
  waiting(): void;
  /** It has one (or stopped waiting: aborted). */
  acquired(): void;
}

/** A fetched page. */
export interface PageResult<V extends RenderVerdict = RenderVerdict> extends FetchResult {
  /** Screenshot when requested: a `data:image/png;base64,...` (JPEG with `quality`) URL, or a file path. */
  screenshot?: string;
  /** Results of the actions, when any ran. */
  actions?: ActionResults;
  /**
   * Why this engine served the page: `http:static`, `engine:http`, `engine:browser`, `options:actions`,
   * `options:screenshot`, `options:waitFor`, `options:mobile`, `options:location`, `options:stealth`,
   * `js-required:<signal>` (the render judge's reason: `empty-body`, `hash-route`, `app-shell`, `noscript-wall`,
   * `hydration`, `placeholder`, `script-only`, `thin-content`, `meta-refresh`; `host` when `hostNeeds` sent it to the
   * browser), `blocked:403|429|challenge` (the stealth retry of `proxy: 'auto'`), `download` (the browser got a file,
   * fetched over HTTP instead); `+browser-unavailable` is appended when the browser was wanted but could not start.
   */
  engineReason: string;
  /**
   * The render judge's `js-required:<signal>` for a page served over HTTP although it looks client-rendered (the
   * engine forced to `http`, `renderIfNeeded: false`, or the browser unavailable): its content may be missing.
   */
  clientRendered?: string;
  /**
   * What this fetch showed about the page, for learning its host's engine: `http` when its HTML held the content
   * (judged so, or rendered without gaining content), `browser` when rendering showed content the HTML lacked. Absent
   * when it showed nothing (an engine or browser-only options forced, not HTML, sent straight to the browser).
   */
  engineEvidence?: 'http' | 'browser';
  /**
   * The render judge's verdict on this very page, when it was judged (a page fetched over HTTP, or rendered to check
   * what rendering gained): what the request's `renderJudge` answered, extras included.
   */
  verdict?: V;
  /**
   * The proxy that served the page (v2 `metadata.proxyUsed`): `stealth` only through a `proxies.stealth` proxy; a
   * stealth attempt without one (fingerprint evasions only) says `basic`.
   */
  proxyUsed: 'basic' | 'stealth';
  /** Requested options the serving engine could not honour (v2's "engine does not support" warning). */
  unsupportedFeatures?: string[];
  /** Requests the browser refused (URL policy, ads and trackers, media). */
  blockedRequests?: number;
  /** Notes for the document's `warning` (a full-page screenshot cut at `MAX_SCREENSHOT_HEIGHT`). */
  warnings?: string[];
}
