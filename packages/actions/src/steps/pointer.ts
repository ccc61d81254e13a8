import type { ElementHandle, HTTPRequest, Page } from 'puppeteer-core';

import type { ClickAction, ScrollAction } from '../types.js';

/** Minimal shape of the DOM element used inside the page (the project compiles without the DOM lib). */
interface PageElement {
  click(): void;
  scrollIntoView(options?: unknown): void;
  scrollBy(x: number, y: number): void;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/** Thrown when a selector matches nothing; the runner turns it into the action's error. */
export class NoMatchError extends Error {
  constructor() {
    super('no element matches the selector');
    this.name = 'NoMatchError';
  }
}

/**
 * Clicks like a user (scrolled into view, mouse events at its centre); an element that cannot take a real click
 * (hidden, covered, zero-size) gets a DOM `click()` instead, as a script would.
 */
async function clickElement(handle: ElementHandle): Promise<void> {
  try {
    await handle.click();
  } catch {
    await handle.evaluate((el) => (el as unknown as PageElement).click());
  }
}

/** What a handle of a document the page has left fails with. */
const LEFT_DOCUMENT = /Execution context was destroyed|same JavaScript world|Cannot find context|detached/i;

/**
 * The click action: the first match, or every match with `all`. A click of `all` that navigates the page (a link)
 * ends it: the other matches were on the document the page left, so they are not clicked, and `warnings` says so
 * (the navigation is followed as a single click's is).
 */
export async function click(page: Page, action: ClickAction, warnings?: string[]): Promise<void> {
  const handles = action.all ? await page.$$(action.selector) : [await page.$(action.selector)];
  const present = handles.filter((h): h is ElementHandle => h !== null);
  if (present.length === 0) throw new NoMatchError();
  const mainFrame = page.mainFrame();
  let left = false;
  const onRequest = (request: HTTPRequest) => {
    if (request.isNavigationRequest() && request.frame() === mainFrame) left = true;
  };
  if (present.length > 1) page.on('request', onRequest);
  try {
    for (const [index, handle] of present.entries()) {
      try {
        await clickElement(handle);
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
  if (!handle) throw new NoMatchError();
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
