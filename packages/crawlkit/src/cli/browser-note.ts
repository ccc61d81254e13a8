import { resolveChromiumPath } from '@crawlkit/fetcher';

/**
 * What a server says at start when it has no Chromium to launch (the engine looks for one only when a page needs it,
 * so without this an operator learns it from a user's failed screenshot): undefined when one is found, with
 * `--engine http`, which never launches one, or with a `browser.wsEndpoint` to connect to instead.
 */
export function missingBrowserWarning(
  engine: string | undefined,
  browser: { executablePath?: unknown; wsEndpoint?: unknown } = {},
): string | undefined {
  if (engine === 'http' || browser.wsEndpoint !== undefined) return undefined;
  try {
    resolveChromiumPath(typeof browser.executablePath === 'string' ? browser.executablePath : undefined);
    return undefined;
  } catch (error) {
    const effect =
      engine === 'browser'
        ? 'Every scrape answers BROWSER_NOT_FOUND until then.'
        : 'Until then, pages that need JavaScript are read over HTTP only, and screenshots, actions and branding fail, saying so.';
    return `${(error as Error).message} ${effect}`;
  }
}
