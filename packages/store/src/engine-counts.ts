import { positiveInteger } from './options.js';
import type { EngineStoreLimits, HostEngineStats } from './types.js';

/** `EngineStore.record`'s limits with their defaults, checked. */
export function engineStoreLimits(limits: EngineStoreLimits = {}): Required<EngineStoreLimits> {
  return {
    maxCount: positiveInteger('maxCount', limits.maxCount, 20),
    maxHosts: positiveInteger('maxHosts', limits.maxHosts, 10_000),
  };
}

/** The counts after one more page: both halved (rounded down) first when they would go over `maxCount`. */
export function countPage(
  old: HostEngineStats | undefined,
  page: 'http' | 'browser',
  maxCount: number,
): HostEngineStats {
  let http = old?.http ?? 0;
  let browser = old?.browser ?? 0;
  if (http + browser + 1 > maxCount) {
    http = Math.floor(http / 2);
    browser = Math.floor(browser / 2);
  }
  return page === 'http' ? { http: http + 1, browser } : { http, browser: browser + 1 };
}
