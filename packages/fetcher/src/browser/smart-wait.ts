import { setTimeout } from 'node:timers';
import { withinBudget } from '@crawlkit/options/within-budget';
import type { Page } from 'puppeteer-core';

import { showsEmptyShell, showsLoadingPlaceholder } from '../render/judge.js';
import { withoutFragment } from '../url-fragment.js';

/** Global the mutation observer writes to (performance.now() of the last DOM change). */
const MARK = '__crawlkitLastMutation';

/**
 * Installed in every document before its scripts: records when the DOM last changed in a way that can change what is
 * read. An animation (a slider's `transform` each frame, a spinner, an SVG animation's path) changes attributes that
 * never hold text: a `style` that neither had nor has `display` or `visibility` (what the extractor reads as hidden),
 * and any attribute of an SVG element. Counting them held every animated page for the whole `smartWaitMaxMs` and
 * called it still loading.
 */
export const MUTATION_OBSERVER_SCRIPT = `(() => {
  try {
    window.${MARK} = performance.now();
    const shows = /display|visibility/i;
    const looksOnly = (r) => r.type === 'attributes' && (r.target instanceof SVGElement ||
      (r.attributeName === 'style' && !shows.test(r.oldValue || '') && !shows.test(r.target.getAttribute('style') || '')));
    new MutationObserver((records) => { if (!records.every(looksOnly)) window.${MARK} = performance.now(); })
      .observe(document, { subtree: true, childList: true, attributes: true, attributeOldValue: true, characterData: true });
  } catch {}
})();`;

/** Quiet periods of the smart wait, in milliseconds. */
export interface SmartWaitSettings {
  /** No request in flight for this long. @default 500 */
  networkIdleMs?: number;
  /** At most two long-lived requests (polling, streams) and no new activity for this long. @default 1500 */
  networkQuietMs?: number;
  /** No DOM mutation for this long. @default 300 */
  domIdleMs?: number;
  /** Polling interval. @default 100 */
  pollMs?: number;
}

/** Requests to one URL (`pollingKey`) a page may make before the next ones to it count as polling. */
const POLLING_AFTER = 2;

/** A cache-buster's value: a timestamp in seconds or milliseconds, or `Math.random()`. */
const CACHE_BUSTER = /^(?:\d{9,}|0?\.\d{6,})$/;

/**
 * The URL a request counts under for polling: without its fragment, and without cache-busting parameters (`_`, and
 * any whose value is a timestamp or a random number), which a poller changes on every request (`?_=1733040000123`).
 * Other parameters stay: `?page=3` after `?page=2` is new content, not the same request again.
 */
function pollingKey(url: string): string {
  const bare = withoutFragment(url);
  const query = bare.indexOf('?');
  if (query < 0) return bare;
  const params = new URLSearchParams(bare.slice(query + 1));
  for (const [name, value] of [...params]) if (name === '_' || CACHE_BUSTER.test(value)) params.delete(name, value);
  return `${bare.slice(0, query)}?${params}`;
}

/**
 * Counts a page's requests in flight and when the last one started or ended. A request to a URL (method and URL)
 * the page already requested `POLLING_AFTER` times is polling (a dashboard's status every 300 ms, a chat's
 * messages): it is left out, or the network never went quiet and every wait, the load's and each action's, ran to
 * `smartWaitMaxMs` (a five-action flow on a polling page took 45 s).
 */
export class NetworkMonitor {
  #inflight = new Set<unknown>();
  #lastActivity = performance.now();
  readonly #seen = new Map<string, number>();

  constructor(page: Page) {
    page.on('request', (request) => {
      const key = `${request.method()} ${pollingKey(request.url())}`;
      const times = (this.#seen.get(key) ?? 0) + 1;
      this.#seen.set(key, times);
      if (times > POLLING_AFTER) return;
      this.#inflight.add(request);
      this.#lastActivity = performance.now();
    });
    const done = (request: unknown) => {
      if (this.#inflight.delete(request)) this.#lastActivity = performance.now();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    page.on('requestservedfromcache', done);
  }

  get inflight(): number {
    return this.#inflight.size;
  }

  /** Milliseconds since a request last started or ended. */
  get quietForMs(): number {
    return performance.now() - this.#lastActivity;
  }
}

/** Pages with more elements than this are not read for a placeholder: their content is there (and reading costs). */
const PLACEHOLDER_MAX_ELEMENTS = 3_000;

/**
 * Whether the page, quiet, still shows only a loading placeholder (`showsLoadingPlaceholder`): an app that renders
 * its content on a timer, or after a request it made before the network went quiet, shows "Loading…" until then.
 * With `requestOpen` (a request still in flight, the network taken as quiet only because nothing new started), an
 * empty app shell counts too (`showsEmptyShell`): its content is what that request brings. Asked within `budgetMs`: a
 * page that does not answer in time is `undefined`, not known to have settled (taken as showing none, a page busy as
 * the wait ran out was said to have settled with its placeholder still up); one whose question fails (a navigation
 * replaced its document) is taken as showing none.
 */
async function stillPlaceholder(page: Page, budgetMs: number, requestOpen: boolean): Promise<boolean | undefined> {
  const html = page
    .evaluate(
      `document.getElementsByTagName('*').length > ${PLACEHOLDER_MAX_ELEMENTS} ? null : document.documentElement.outerHTML`,
    )
    .then(
      (v) => (typeof v === 'string' ? v : null),
      () => null,
    );
  const shown = await withinBudget(html, budgetMs, () => undefined);
  if (shown === undefined) return undefined;
  return shown !== null && (showsLoadingPlaceholder(shown) || (requestOpen && showsEmptyShell(shown)));
}

/**
 * Waits until the network and the DOM are both idle and the page shows more than a loading placeholder, or `maxMs`
 * passes, whichever is first (never an error: a page that never settles is captured as it is). Returns whether the
 * page settled.
 */
export async function smartWait(
  page: Page,
  network: NetworkMonitor,
  maxMs: number,
  settings: SmartWaitSettings = {},
  signal?: AbortSignal,
): Promise<boolean> {
  const networkIdleMs = settings.networkIdleMs ?? 500;
  const networkQuietMs = settings.networkQuietMs ?? 1500;
  const domIdleMs = settings.domIdleMs ?? 300;
  const pollMs = settings.pollMs ?? 100;
  const deadline = performance.now() + maxMs;
  const left = () => deadline - performance.now();
  while (left() > 0 && !signal?.aborted) {
    const quiet = network.quietForMs;
    const networkSettled =
      (network.inflight === 0 && quiet >= networkIdleMs) || (network.inflight <= 2 && quiet >= networkQuietMs);
    if (networkSettled) {
      // Asked within the time left: a page busy in a script (or a loaded Chromium) answers late, and the wait's end
      // is the capture's start, which the time after the wait is kept for.
      const asked = page.evaluate(`performance.now() - (window.${MARK} ?? 0)`).then(
        (v) => v as number,
        () => Number.POSITIVE_INFINITY,
      );
      const sinceMutation = await withinBudget(asked, left(), () => Number.NaN);
      if (sinceMutation >= domIdleMs && (await stillPlaceholder(page, left(), network.inflight > 0)) === false) {
        return true;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(pollMs, left()))));
  }
  return false;
}
