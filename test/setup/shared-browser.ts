/**
 * One Chromium for the whole vitest run, which test files connect to (`browser.wsEndpoint`) when they only need *a*
 * browser: a launch is ~2 s of CPU, and ~25 files launched one each.
 *
 * - As the vitest `globalSetup`, it starts a small HTTP server on 127.0.0.1 and sets `CRAWLKIT_TEST_BROWSER` to its
 *   URL. Chromium is launched on the first request for it (a run of files that need no browser starts none), found as
 *   the product finds it (`CRAWLKIT_CHROMIUM`, then the usual paths), launched again if it has died, and killed with
 *   its profile at the end of the run, whether tests failed or not (and by its pipe's closing when the run is killed).
 * - A file calls `await sharedBrowserEndpoint()` (the fixture helpers do): the endpoint, or undefined outside such a
 *   run or when no Chromium can start (the file then launches its own, and fails as it would have).
 *
 * `CRAWLKIT_TEST_BROWSER=off` runs the suite as before: every file launches its own.
 *
 * Files sharing it each open their own contexts, and only see those (see `browser.wsEndpoint`): the forks of a run
 * use it at the same time without disturbing each other.
 */
import { createServer, type Server } from 'node:http';

import { launchListening, type ListeningChromium } from '../helpers/listening-chromium.ts';

export const SHARED_BROWSER_ENV = 'CRAWLKIT_TEST_BROWSER';

/** vitest globalSetup: the launcher for the run (once, however many projects ask). */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[SHARED_BROWSER_ENV]) return undefined;
  let chromium: Promise<ListeningChromium> | undefined;
  const current = async (): Promise<ListeningChromium> => {
    const running = await chromium?.catch(() => undefined);
    if (running?.launched.browser.connected) return running;
    chromium = launchListening();
    return chromium;
  };
  const server: Server = createServer((_request, response) => {
    current().then(
      (running) => response.end(running.wsEndpoint),
      (error: unknown) => {
        chromium = undefined;
        response.statusCode = 503;
        response.end(error instanceof Error ? error.message : String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('shared-browser: no address');
  process.env[SHARED_BROWSER_ENV] = `http://127.0.0.1:${address.port}`;
  return async () => {
    delete process.env[SHARED_BROWSER_ENV];
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await (await chromium?.catch(() => undefined))?.close();
  };
}

/**
 * The run's shared Chromium's `wsEndpoint` (launched on first use, or again when it has died since), or undefined
 * outside a vitest run of this repository's config or when it could not start.
 */
export async function sharedBrowserEndpoint(): Promise<string | undefined> {
  const launcher = process.env[SHARED_BROWSER_ENV];
  if (!launcher || launcher === 'off') return undefined;
  try {
    const response = await fetch(launcher);
    return response.ok ? await response.text() : undefined;
  } catch {
    return undefined;
  }
}
