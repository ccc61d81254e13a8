import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { dependencyFile } from '@crawlkit/options/lazy-module';

import { compiledEngineCache, type EngineCache } from './adblock-cache.js';

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
 * The default blocker, built once per process from the filter list that `@ghostery/trackerdb` ships
 * (`dist/trackerdb.txt`, Adblock Plus syntax, no download), keeping the advertising, analytics and consent-manager
 * categories. Compiling the list takes about 0.3 s, so the compiled engine is kept in a per-user cache
 * (`adblock-cache.ts`) and later processes load it in a few milliseconds. `lists` (paths of Adblock Plus / uBlock
 * filter list files, e.g. EasyList) replace it.
 */
export function loadAdBlocker(lists?: readonly string[]): Promise<AdBlocker> {
  if (lists?.length) return buildFromFiles(lists);
  shared ??= loadDefaultAdBlocker(compiledEngineCache()).catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** The default blocker, from `cache` when it holds the engine compiled from this list, else compiled and stored. */
export async function loadDefaultAdBlocker(cache: EngineCache | undefined): Promise<AdBlocker & { compiled: boolean }> {
  // The package's only export is its ESM/CJS entry under dist/; the list sits beside it.
  const list = dependencyFile(
    [
      join(import.meta.dirname, '../../node_modules/@ghostery/trackerdb/dist/trackerdb.txt'),
      join(import.meta.dirname, '../../../../@ghostery/trackerdb/dist/trackerdb.txt'),
    ],
    () => join(dirname(dirname(createRequire(import.meta.url).resolve('@ghostery/trackerdb'))), 'trackerdb.txt'),
  );
  const [{ FiltersEngine, Request }, { size, mtimeMs }] = await Promise.all([
    import('@ghostery/adblocker'),
    stat(list),
  ]);
  // The list file as installed (a reinstall or update changes its size or time) and the categories kept. An entry
  // written by another version of the engine fails to deserialize.
  const key = [list, String(size), String(mtimeMs), BLOCKED_TRACKER_CATEGORIES.join(','), String(ENGINE_FORMAT)];
  const stored = await cache?.read(key);
  if (stored) {
    try {
      return { ...fromEngine(FiltersEngine.deserialize(stored), Request), compiled: true };
    } catch {
      // Compiled again below, and replaced.
    }
  }
  const text = await readFile(list, 'utf8');
  const engine = FiltersEngine.parse(trackerFilters(text), { loadCosmeticFilters: false, debug: false });
  await cache?.write(key, engine.serialize());
  return { ...fromEngine(engine, Request), compiled: false };
}

/** Bump when the way the default engine is built changes (parse options, filters kept), to leave old entries. */
const ENGINE_FORMAT = 1;

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
