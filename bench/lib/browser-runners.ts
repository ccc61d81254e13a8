// The browser engines the browser benchmarks compare, on one Chromium with the same flags and fixture pages:
// crawlkit's Fetcher, Crawlee's PuppeteerCrawler (bench/lib/crawlee-puppeteer.ts) and plain puppeteer loops.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Fetcher } from '@crawlkit/fetcher';
import puppeteer, { type Browser } from 'puppeteer-core';

import { openCrawleePuppeteer } from './crawlee-puppeteer.ts';

export const CHROMIUM = process.env.CRAWLKIT_CHROMIUM ?? '/usr/bin/chromium';
/** Every name but 127.0.0.1 fails to resolve: the fixture pages load nothing from elsewhere. */
export const ISOLATED = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];
/** The flags of the runners that launch their own Chromium (crawlkit's Fetcher adds its own set). */
export const FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  ...ISOLATED,
];
/** The JavaScript fixture pages (`fixtures/site/js/`): `BENCH_PAGES=/js/a.html,/js/b.html` replaces them. */
export const PAGES = process.env.BENCH_PAGES?.split(',') ?? [
  '/js/rendered.html',
  '/js/app-shell.html',
  '/js/noscript.html',
  '/js/load-more.html',
  '/js/infinite.html',
  '/js/consent.html',
];

/** A render that returns less HTML than this rendered almost nothing, and counts as failed. */
export const MIN_RENDERED_CHARS = 100;

/** One engine under test: opens, renders a URL to HTML, closes; `profiles()` names its Chromium profile directories. */
export interface Runner {
  name: string;
  open(concurrency: number): Promise<Engine>;
}
export interface Engine {
  render(url: string): Promise<string>;
  profiles(): string[];
  close(): Promise<void>;
}

/** crawlkit's Fetcher forced to the browser; `blockAds` on (v2's default) also dismisses cookie banners. */
export function crawlkitRunner(blockAds: boolean): Runner {
  return {
    name: `crawlkit Fetcher (browser, blockAds: ${blockAds})`,
    open(concurrency) {
      const fetcher = new Fetcher({
        browser: { args: ISOLATED, maxConcurrentPages: concurrency },
        urlPolicy: { allowedHosts: ['127.0.0.1'] },
      });
      return Promise.resolve({
        render: async (url: string) => (await fetcher.fetch({ url, engine: 'browser', blockAds })).text ?? '',
        profiles: () => fetcher.browserStats.profiles,
        close: () => fetcher.close(),
      });
    },
  };
}

export interface PuppeteerRunnerOptions {
  /** A fresh browser context per URL (as crawlkit isolates scrapes), else pages of the default context. @default true */
  contextPerPage?: boolean;
  /** Flags added to `FLAGS`. @default [] */
  extraFlags?: readonly string[];
  /** Name of the row. @default 'plain puppeteer (networkidle0)' */
  name?: string;
}

/** A plain puppeteer loop: one browser, `goto(url, networkidle0)`, `content()`. */
export function puppeteerRunner(options: PuppeteerRunnerOptions = {}): Runner {
  const contextPerPage = options.contextPerPage ?? true;
  return {
    name: options.name ?? 'plain puppeteer (networkidle0)',
    async open() {
      const userDataDir = mkdtempSync(join(tmpdir(), 'bench-puppeteer-'));
      const browser: Browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        pipe: true,
        args: [...FLAGS, ...(options.extraFlags ?? [])],
        userDataDir,
      });
      return {
        async render(url) {
          const context = contextPerPage ? await browser.createBrowserContext() : browser.defaultBrowserContext();
          const page = await context.newPage();
          try {
            await page.goto(url, { waitUntil: 'networkidle0', timeout: 30_000 });
            return await page.content();
          } finally {
            await (contextPerPage ? context.close() : page.close());
          }
        },
        profiles: () => [userDataDir],
        async close() {
          await browser.close();
          rmSync(userDataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

export const crawleeRunner: Runner = {
  name: 'Crawlee PuppeteerCrawler (networkidle0)',
  open: (concurrency) => Promise.resolve(openCrawleePuppeteer(CHROMIUM, FLAGS, concurrency)),
};
