/**
 * SearXNG's JSON API (`GET /search?q=...&format=json`), the self-host standard. The instance must list `json` in
 * `search.formats` of its settings.yml (it answers 403 otherwise).
 */
import { z } from 'zod';

import { CrawlkitError } from '../../errors.js';
import {
  providerJson,
  unappliedOptions,
  wholePeriod,
  withSites,
  type WebResult,
  type WebSearchProvider,
  type WebSearchQuery,
} from './provider.js';

const CATEGORIES = { web: 'general', news: 'news', images: 'images' } as const;
const TIME_RANGES: Record<string, string> = { d: 'day', w: 'week', m: 'month', y: 'year' };

const answerSchema = z.looseObject({
  results: z.array(
    z.looseObject({
      url: z.string(),
      title: z.string().optional(),
      content: z.string().nullish(),
      publishedDate: z.string().nullish(),
      img_src: z.string().nullish(),
      thumbnail_src: z.string().nullish(),
      resolution: z.string().nullish(),
    }),
  ),
});

export interface SearxngOptions {
  /** The instance's base URL, e.g. `http://127.0.0.1:8888`. */
  url: string;
  /** SearXNG's `language` (e.g. `en`, `de-CH`). @default the instance's */
  language?: string;
  /** SearXNG's `engines` (comma-separated). @default the instance's */
  engines?: string;
}

export function searxngProvider(options: SearxngOptions): WebSearchProvider {
  const base = new URL(options.url);
  return {
    name: 'searxng',
    sources: ['web', 'news', 'images'],
    // Its `language` is the instance's setting, not a query's; its `time_range` has no custom dates.
    unapplied: (query) => unappliedOptions(query, { tbs: (tbs) => wholePeriod(tbs) !== undefined }),
    async search(query: WebSearchQuery): Promise<WebResult[]> {
      const url = new URL('search', base.href.endsWith('/') ? base : `${base.href}/`);
      url.searchParams.set('q', withSites(query));
      url.searchParams.set('format', 'json');
      url.searchParams.set('categories', CATEGORIES[query.source]);
      const period = wholePeriod(query.tbs);
      if (period) url.searchParams.set('time_range', TIME_RANGES[period]!);
      if (options.language) url.searchParams.set('language', options.language);
      if (options.engines) url.searchParams.set('engines', options.engines);
      const checked = answerSchema.safeParse(await providerJson('searxng', url, {}, query.signal));
      if (!checked.success) {
        throw new CrawlkitError(
          'SEARCH_PROVIDER_FAILED',
          'The searxng search provider answered JSON without `results`.',
        );
      }
      return checked.data.results.map((r) => {
        const result: WebResult = { url: r.url };
        if (r.title) result.title = r.title;
        if (r.content) result.description = r.content;
        if (r.publishedDate) result.date = r.publishedDate;
        const image = r.img_src ?? r.thumbnail_src;
        if (query.source === 'images' && image) {
          result.imageUrl = image;
          const size = /^(\d+)\s*x\s*(\d+)$/.exec(r.resolution ?? '');
          if (size) {
            result.imageWidth = Number(size[1]);
            result.imageHeight = Number(size[2]);
          }
        }
        return result;
      });
    },
  };
}
