/**
 * A browser engine over one page whose images (under `/img/`) are counted as the site serves them: what a browser
 * scrape really loaded of a page, for the tests of pictures and image blocking.
 */
import type { FixtureServer } from '../../fixtures/server.ts';
import { useFixtureEngine, type FixtureEngine } from './fixture-engine.ts';
import { countedImages, sendPage, startRouteSite } from './route-site.ts';
import { ISOLATED_ARGS } from './scrape.ts';

/** The engine (browser, memory store) and the site's image counter; the page is `sendPage(title, body)` at `path`. */
export function useImagePage(
  path: string,
  title: string,
  body: string,
): { env: FixtureEngine<FixtureServer>; images: ReturnType<typeof countedImages> } {
  const images = countedImages();
  const env = useFixtureEngine({
    server: () => startRouteSite({ [path]: (_req, res) => sendPage(res, title, body), '/img/*': images.route }),
    crawlkit: { store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS }, timeoutMs: 20_000 },
  });
  return { env, images };
}
