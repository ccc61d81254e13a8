import type { ElementHandle, Page } from 'puppeteer-core';

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

/** The click action: the first match, or every match with `all`. */
export async function click(page: Page, action: ClickAction): Promise<void> {
  const handles = action.all ? await page.$$(action.selector) : [await page.$(action.selector)];
  const present = handles.filter((h): h is ElementHandle => h !== null);
  if (present.length === 0) throw new NoMatchError();
  try {
    for (const handle of present) await clickElement(handle);
  } finally {
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
