// Crawlee's PuppeteerCrawler as a browser benchmark engine: one long-running crawler (`keepAlive`) on the same
// Chromium and flags as the other runners, fed one request per `render()`, its HTML handed back from the request
// handler. Settings that would make it do other work than the rest are aligned: navigation waits for
// `networkidle0` (as the plain puppeteer runner), no retries, memory storage, logs off. Where Crawlee's defaults
// are cheaper they stay (pages share one browser context: incognito pages would need the full `puppeteer` package),
// and fingerprint injection (on by default) is turned off, so that Crawlee is measured at its fastest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Configuration, log, LogLevel, PuppeteerCrawler } from '@crawlee/puppeteer';
import puppeteer from 'puppeteer-core';

export interface CrawleeEngine {
  render(url: string): Promise<string>;
  /** A prefix of the Chromium profile directories, to find its processes. */
  profiles(): string[];
  close(): Promise<void>;
}

/** Starts a PuppeteerCrawler running exactly `concurrency` pages at once. */
export function openCrawleePuppeteer(executablePath: string, args: string[], concurrency: number): CrawleeEngine {
  log.setLevel(LogLevel.OFF);
  // Every browser the pool launches gets its own profile under this directory (the pool may start a second browser
  // while the first is launching, and two cannot share a profile); processes are found by this prefix.
  const profilesDir = mkdtempSync(join(tmpdir(), 'bench-crawlee-'));
  let launches = 0;
  const pending = new Map<string, { resolve: (html: string) => void; reject: (error: Error) => void }>();
  let next = 0;
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const crawler = new PuppeteerCrawler(
    {
      keepAlive: true,
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 0,
      navigationTimeoutSecs: 30,
      requestHandlerTimeoutSecs: 30,
      useSessionPool: false,
      launchContext: {
        launcher: puppeteer,
        launchOptions: { executablePath, headless: true, pipe: true, args },
      },
      browserPoolOptions: {
        useFingerprints: false,
        retireBrowserAfterPageCount: 1_000_000,
        preLaunchHooks: [
          (_pageId, launchContext) => {
            launchContext.userDataDir = join(profilesDir, `browser-${launches++}`);
          },
        ],
      },
      preNavigationHooks: [
        (_ctx, gotoOptions) => {
          if (gotoOptions) (gotoOptions as { waitUntil?: string }).waitUntil = 'networkidle0';
        },
      ],
      requestHandler: async ({ page, request }) => {
        const html = await page.content();
        pending.get(request.uniqueKey)?.resolve(html);
        pending.delete(request.uniqueKey);
      },
      failedRequestHandler: ({ request }, error) => {
        pending.get(request.uniqueKey)?.reject(error);
        pending.delete(request.uniqueKey);
      },
    },
    config,
  );
  // A crawler that dies fails every render waiting on it (and is not an unhandled rejection of this process).
  const running = crawler.run().catch((error: unknown) => {
    const reason = error instanceof Error ? error : new Error(String(error));
    for (const waiting of pending.values()) waiting.reject(reason);
    pending.clear();
  });
  return {
    render(url) {
      const uniqueKey = `${url}#${next++}`;
      return new Promise<string>((resolve, reject) => {
        pending.set(uniqueKey, { resolve, reject });
        crawler.addRequests([{ url, uniqueKey }]).catch(reject);
      });
    },
    profiles: () => [`${profilesDir}/`],
    async close() {
      crawler.stop();
      await running;
      rmSync(profilesDir, { recursive: true, force: true });
    },
  };
}
