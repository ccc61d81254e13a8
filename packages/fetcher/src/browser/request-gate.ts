import { lookup } from 'node:dns/promises';

import type { HTTPRequest, Page } from 'puppeteer-core';

import { isFetchError, type FetchError } from '../errors.js';
import {
  blockedAfterRedirect,
  blockedError,
  checkUrlAgainstPolicy,
  isBlockedAddress,
  type UrlPolicy,
} from '../policy/url-policy.js';
import type { AdBlocker } from './adblock.js';
import type { PagePictures } from './pixel-needs.js';
import { redirectLimitError } from './navigation-errors.js';
import { sameHeaderSite } from '../policy/header-site.js';
import type { RecordedSource } from '../warc/exchange.js';

const PASS_SCHEMES = new Set(['data:', 'blob:', 'about:', 'chrome-extension:']);

export interface RequestGateSettings {
  policy: UrlPolicy;
  /** The page's pictures: the resource types it never needs are dropped (`PagePictures.droppedTypes`). */
  pictures: PagePictures;
  /** Drop ads, trackers and consent managers. */
  adBlocker?: AdBlocker;
  /** Answer every request allowed from recordings instead of the network (replay); a miss fails the request. */
  serve?: RecordedSource;
  /** Redirects a main-frame navigation may follow (`http.limits.maxRedirects`). @default Chromium's own limit */
  maxRedirects?: number;
  /**
   * The request's own `headers` (cookies, `Authorization`), which the page sends with every request, and the scraped
   * page's URL: they are taken off the requests anywhere but the page's site (`sameHeaderSite`: its host, `www.` aside,
   * on its port; never `http:` under an `https:` page), so that a page's CDNs, analytics and ads never get them.
   * @default none
   */
  siteHeaders?: { names: readonly string[]; url: URL };
}

/** Why a request was refused. */
export type BlockReason = 'policy' | 'ad' | 'resource-type';

/**
 * Request interception for one page: every request (redirect hops included) is checked against the URL policy,
 * and, when the policy refuses private networks, so is every address its host resolves to; ads, trackers and the
 * resource types a page that shows no pixels never needs (images, media, fonts) are dropped as configured.
 */
export class RequestGate {
  readonly #settings: RequestGateSettings;
  readonly #dropTypes: ReadonlySet<string>;
  readonly #hostVerdicts = new Map<string, Promise<string | undefined>>();
  /** Requests refused so far. */
  readonly blocked: { url: string; reason: BlockReason; resourceType: string }[] = [];
  /** Set when the policy refused a main-frame navigation. */
  mainFrameError: FetchError | undefined;
  /** The URL of the main frame's latest navigation request (redirect hops included). */
  lastMainFrameUrl: string | undefined;
  /** The redirect chain that led to that request, its URL last: what a navigation Chromium gave up on went through. */
  hops: readonly string[] = [];

  constructor(settings: RequestGateSettings) {
    this.#settings = settings;
    this.#dropTypes = settings.pictures.droppedTypes;
  }

  async attach(page: Page): Promise<void> {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      void this.#handle(page, request);
    });
  }

  /** URLs of blocked sub-frame documents (ad iframes), to remove their empty frames from the page. */
  get blockedFrames(): string[] {
    return this.blocked.filter((b) => b.resourceType === 'document').map((b) => b.url);
  }

  /** Removes from `page` the empty frames of the sub-frame documents refused so far (ad iframes). */
  async removeBlockedFrames(page: Page): Promise<void> {
    const urls = this.blockedFrames;
    if (!urls.length) return;
    await page
      .evaluate(
        `(() => { const blocked = new Set(${JSON.stringify(urls)});
        for (const frame of Array.from(document.querySelectorAll('iframe'))) if (blocked.has(frame.src)) frame.remove(); })()`,
      )
      .catch(() => undefined);
  }

  async #handle(page: Page, request: HTTPRequest): Promise<void> {
    if (request.isInterceptResolutionHandled()) return;
    const url = request.url();
    const type = request.resourceType();
    const isMainDocument = request.isNavigationRequest() && request.frame() === page.mainFrame();
    if (isMainDocument) {
      this.lastMainFrameUrl = url;
      this.hops = [...request.redirectChain().map((hop) => hop.url()), url];
      if (this.hops.length - 1 > (this.#settings.maxRedirects ?? Number.POSITIVE_INFINITY)) {
        this.mainFrameError = redirectLimitError(this.hops, this.#settings.maxRedirects!);
        await request.abort('blockedbyclient').catch(() => undefined);
        return;
      }
    }
    let reason: BlockReason | undefined;
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (parsed && !PASS_SCHEMES.has(parsed.protocol)) {
      const refusal = await this.#policyRefusal(parsed);
      if (refusal) {
        reason = 'policy';
        if (isMainDocument) {
          this.mainFrameError = this.hops.length > 1 ? blockedAfterRedirect(refusal, this.hops[0]!) : refusal;
        }
      } else if (this.#dropTypes.has(type)) {
        reason = 'resource-type';
      } else if (this.#settings.adBlocker?.isBlocked(url, type, page.url() || url, isMainDocument)) {
        reason = 'ad';
      }
    }
    try {
      if (reason) {
        this.blocked.push({ url, reason, resourceType: type });
        await request.abort('blockedbyclient');
      } else if (this.#settings.serve && parsed && !PASS_SCHEMES.has(parsed.protocol)) {
        await this.#serve(request, this.#settings.serve, isMainDocument);
      } else {
        await request.continue(this.#withoutSiteHeaders(request, parsed));
      }
    } catch {
      // The page closed or the request was cancelled meanwhile.
    }
  }

  /** The overrides of a request off the page's site: its headers without the request's own. */
  #withoutSiteHeaders(request: HTTPRequest, url: URL | undefined): { headers: Record<string, string> } | undefined {
    const own = this.#settings.siteHeaders;
    if (!own?.names.length || !url || PASS_SCHEMES.has(url.protocol) || sameHeaderSite(own.url, url)) {
      return undefined;
    }
    const names = new Set(own.names.map((n) => n.toLowerCase()));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers()))
      if (!names.has(name.toLowerCase())) headers[name] = value;
    return { headers };
  }

  /** Answers `request` from the recordings; a URL not recorded fails it (the page's navigation with its error). */
  async #serve(request: HTTPRequest, serve: RecordedSource, isMainDocument: boolean): Promise<void> {
    let served;
    try {
      served = await serve(request.url());
    } catch (error) {
      if (isMainDocument && isFetchError(error)) this.mainFrameError ??= error;
      await request.abort('internetdisconnected');
      return;
    }
    // Values joined with a line break (`set-cookie`) are separate header lines.
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(served.headers))
      headers[name] = value.includes('\n') ? value.split('\n') : value;
    await request.respond({ status: served.status, headers, body: Buffer.from(served.body) });
  }

  async #policyRefusal(url: URL): Promise<FetchError | undefined> {
    const policy = this.#settings.policy;
    try {
      checkUrlAgainstPolicy(url, policy);
    } catch (error) {
      if (isFetchError(error)) return error;
      throw error;
    }
    if (policy.allowPrivateNetworks !== false) return undefined;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let verdict = this.#hostVerdicts.get(host);
    if (!verdict) {
      verdict = lookup(host, { all: true, verbatim: true }).then(
        (addresses) => {
          for (const { address } of addresses) {
            const rule = isBlockedAddress(address, policy);
            if (rule) return `${rule}:${address}`;
          }
          return undefined;
        },
        () => undefined, // Unresolvable: Chromium fails it on its own with a DNS error.
      );
      this.#hostVerdicts.set(host, verdict);
    }
    const refused = await verdict;
    if (!refused) return undefined;
    const [rule, ...address] = refused.split(':');
    return blockedError(url, host, rule!, address.join(':'));
  }
}
