import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type { FiltersEngine, Request } from '@ghostery/adblocker';

/** Categories of Ghostery's tracker database blocked by `blockAds`. */
export const BLOCKED_TRACKER_CATEGORIES: readonly string[] = Object.freeze([
  'advertising',
  'pornvertising',
  'site_analytics',
  'consent',
]);

/** Matches requests against the ad, tracker and consent-manager filter lists. */
export interface AdBlocker {
  /** True when a request of `resourceType` (puppeteer's names) for `url` made by a page at `sourceUrl` is blocked. */
  isBlocked(url: string, resourceType: string, sourceUrl: string, isMainFrameDocument: boolean): boolean;
}

let shared: Promise<AdBlocker> | undefined;

/**
 * The default blocker, built once per process (about 0.3 s) from the filter list that `@ghostery/trackerdb` ships
 * (`dist/trackerdb.txt`, Adblock Plus syntax, no download), keeping the advertising, analytics and consent-manager
 * categories. `lists` (paths of Adblock Plus / uBlock filter list files, e.g. EasyList) replace it.
 */
export function loadAdBlocker(lists?: readonly string[]): Promise<AdBlocker> {
  if (lists?.length) return buildFromFiles(lists);
  shared ??= buildDefault().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

async function buildDefault(): Promise<AdBlocker> {
  const require = createRequire(import.meta.url);
  // The package's only export is its ESM/CJS entry under dist/; the list sits beside it.
  const entry = require.resolve('@ghostery/trackerdb');
  const distDir = dirname(dirname(entry));
  const text = await readFile(join(distDir, 'trackerdb.txt'), 'utf8');
  return fromList(trackerFilters(text));
}

async function buildFromFiles(lists: readonly string[]): Promise<AdBlocker> {
  const texts = await Promise.all(lists.map((file) => readFile(file, 'utf8')));
  return fromList(texts.join('\n'));
}

/** The filter engine is loaded with the first blocker (only browser scrapes with `blockAds` need it). */
async function fromList(filters: string): Promise<AdBlocker> {
  const { FiltersEngine, Request } = await import('@ghostery/adblocker');
  return fromEngine(FiltersEngine.parse(filters, { loadCosmeticFilters: false, debug: false }), Request);
}

/** Keeps the filters whose `! trackerdb_category:` comment names a blocked category. */
export function trackerFilters(text: string): string {
  const kept: string[] = [];
  let keep = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('!')) {
      const category = /trackerdb_category:(\S+)/.exec(line)?.[1];
      keep = category !== undefined && BLOCKED_TRACKER_CATEGORIES.includes(category);
    } else if (keep && line.trim()) {
      kept.push(line.trim());
    }
  }
  return kept.join('\n');
}

function fromEngine(engine: FiltersEngine, requests: typeof Request): AdBlocker {
  return {
    isBlocked(url, resourceType, sourceUrl, isMainFrameDocument) {
      if (isMainFrameDocument) return false;
      const type = resourceType === 'document' ? 'sub_frame' : resourceType;
      try {
        const request = requests.fromRawDetails({
          url,
          type: type as Parameters<typeof Request.fromRawDetails>[0]['type'],
          sourceUrl,
        });
        return engine.match(request).match;
      } catch {
        return false;
      }
    },
  };
}
