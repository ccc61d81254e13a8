import type { ElementHandle, HTTPRequest, Page } from 'puppeteer-core';

import { sleep } from '../sleep.js';
import type { ClickAction, ScrollAction } from '../types.js';

import { LEFT_DOCUMENT } from './page-html.js';

/** Minimal shape of the DOM element used inside the page (the project compiles without the DOM lib). */
interface PageElement {
  click(): void;
  scrollIntoView(options?: unknown): void;
  scrollBy(x: number, y: number): void;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/**
 * Thrown when a selector matches nothing (`waited`: a `wait` for it ran out of time); the runner turns it into the
 * action's error.
 */
export class NoMatchError extends Error {
  /** The URL of an iframe the selector matches in, when one does: actions reach only the page itself. */
  readonly frameUrl: string | undefined;

  constructor(frameUrl?: string, waited = false) {
    const none = waited ? 'matched before the time ran out' : 'matches the selector';
    super(
      frameUrl === undefined
        ? `no element ${none}`
        : `no element of the page ${none}; one inside the iframe of ${frameUrl} does, and actions ` +
            "reach only the page itself (open the frame's URL instead)",
    );
    this.name = 'NoMatchError';
    this.frameUrl = frameUrl;
  }
}

/**
 * The error of a selector the page does not match, naming a frame it matches in (what an iframe hides). Every
 * selector action's no-match error comes from here.
 */
export async function noMatch(page: Page, selector: string, waited = false): Promise<NoMatchError> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const found = await frame.$(selector).catch(() => null);
    if (!found) continue;
    await found.dispose().catch(() => undefined);
    return new NoMatchError(frame.url(), waited);
  }
  return new NoMatchError(undefined, waited);
}

/** Thrown when the element to click stays disabled until the time runs out. */
export class StayedDisabledError extends Error {
  constructor() {
    super('the element stayed disabled until the time ran out (a click waits for a disabled element to be enabled)');
    this.name = 'StayedDisabledError';
  }
}

/** Poll period of the wait for a disabled element to be enabled. */
const ENABLED_POLL_MS = 50;
/**
 * Time the wait for an enabled element leaves to the actions' budget, so that its own error is the one told: one
 * in-page check takes a few hundred ms on a loaded machine (at 100 ms the page's timeout could fire first).
 */
const ENABLED_MARGIN_MS = 500;

/**
 * In-page: what is at the element's point `(x, y)` when it is not the element nor inside it (shadow trees
 * included), as a short tag (`<div id="overlay">`); null when the element itself would take the click.
 */
const COVER_AT = `(el, x, y) => {
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  for (let node = hit; node; node = node.parentNode ?? node.host) if (node === el) return null;
  if (!hit) return null;
  const id = hit.id ? ' id="' + hit.id + '"' : '';
  const cls = !id && typeof hit.className === 'string' && hit.className ? ' class="' + hit.className + '"' : '';
  return '<' + hit.localName + id + cls + '>';
}`;

const isDisabled = (handle: ElementHandle) =>
  handle.evaluate((el) => (el as unknown as { matches(s: string): boolean }).matches(':disabled'));

/**
 * Clicks like a user (scrolled into view, mouse events at its centre). A disabled element is waited for until it is
 * enabled (within `remaining()`), as a user waits for a button to light up. An element that cannot take a real
 * click (hidden, zero-size) or that something else covers at its centre (an overlay, a modal) gets a DOM `click()`
 * instead, as a script would: the mouse would have clicked the cover. A covered click is told in `warnings`.
 */
async function clickElement(
  page: Page,
  handle: ElementHandle,
  selector: string,
  remaining: () => number,
  warnings?: string[],
): Promise<void> {
  while (await isDisabled(handle)) {
    if (remaining() <= ENABLED_MARGIN_MS + ENABLED_POLL_MS) throw new StayedDisabledError();
    await sleep(ENABLED_POLL_MS);
  }
  let point: { x: number; y: number };
  try {
    if (!(await handle.isIntersectingViewport({ threshold: 1 }))) await handle.scrollIntoView();
    point = await handle.clickablePoint();
  } catch {
    await handle.evaluate((el) => (el as unknown as PageElement).click());
    return;
  }
  const cover = await handle.evaluate(
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the hit test runs in the page
    new Function(`return (${COVER_AT})(...arguments)`) as (el: unknown, x: number, y: number) => string | null,
    point.x,
    point.y,
  );
  if (cover === null) {
    await page.mouse.click(point.x, point.y);
    return;
  }
  warnings?.push(
    `click ${JSON.stringify(selector)}: ${cover} covered the element at its centre, so it was clicked by script ` +
      '(element.click()), which a user could not have done.',
  );
  await handle.evaluate((el) => (el as unknown as PageElement).click());
}

/**
 * The click action: the first match, or every match with `all`. A click of `all` that navigates the page (a link)
 * ends it: the other matches were on the document the page left, so they are not clicked, and `warnings` says so
 * (the navigation is followed as a single click's is).
 */
export async function click(
  page: Page,
  action: ClickAction,
  remaining: () => number,
  warnings?: string[],
): Promise<void> {
  const handles = action.all ? await page.$$(action.selector) : [await page.$(action.selector)];
  const present = handles.filter((h): h is ElementHandle => h !== null);
  if (present.length === 0) throw await noMatch(page, action.selector);
  const mainFrame = page.mainFrame();
  let left = false;
  const onRequest = (request: HTTPRequest) => {
    if (request.isNavigationRequest() && request.frame() === mainFrame) left = true;
  };
  if (present.length > 1) page.on('request', onRequest);
  try {
    for (const [index, handle] of present.entries()) {
      try {
        await clickElement(page, handle, action.selector, remaining, warnings);
      } catch (error) {
        if (!left && !(error instanceof Error && LEFT_DOCUMENT.test(error.message))) throw error;
        left = true;
      }
      if (left && index < present.length - 1) {
        const rest = present.length - index - 1;
        warnings?.push(
          `click ${JSON.stringify(action.selector)} with all: the page navigated by match ${index + 1} of ` +
            `${present.length}, so the other ${rest} match${rest === 1 ? '' : 'es'} (on the page it left) were not ` +
            'clicked.',
        );
        break;
      }
    }
  } finally {
    page.off('request', onRequest);
    await Promise.all(present.map((h) => h.dispose().catch(() => undefined)));
  }
}

/** The scroll action: the page, or the matching element, by one screen up or down. */
export async function scroll(page: Page, action: ScrollAction): Promise<void> {
  const sign = action.direction === 'up' ? -1 : 1;
  if (action.selector === undefined) {
    await page.evaluate(`window.scrollBy(0, ${sign} * window.innerHeight)`);
    return;
  }
  const handle = await page.$(action.selector);
  if (!handle) throw await noMatch(page, action.selector);
  try {
    await handle.evaluate((raw, s) => {
      const el = raw as unknown as PageElement;
      if (el.scrollHeight > el.clientHeight) el.scrollBy(0, s * el.clientHeight);
      else el.scrollIntoView({ block: s < 0 ? 'start' : 'end' });
    }, sign);
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}
