import type { Page } from 'puppeteer-core';

/** Characters of an error's message kept: enough to name it, not a stack. */
const MAX_CHARS = 200;

/**
 * The first uncaught error of a page's scripts (`pageerror`), as `Name: message`: what a rendered page that shows
 * nothing tells of why (an app whose bundle threw before it mounted).
 */
export class ScriptErrors {
  #first: string | undefined;

  constructor(page: Page) {
    page.on('pageerror', (error: unknown) => {
      if (this.#first !== undefined) return;
      const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      this.#first = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}…` : text;
    });
  }

  /** The first uncaught error, if any. */
  get first(): string | undefined {
    return this.#first;
  }
}
