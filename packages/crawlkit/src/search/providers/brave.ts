/** Brave Search's API (a key from api-dashboard.search.brave.com): web, news and images. */
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

const FRESHNESS: Record<string, string> = { d: 'pd', w: 'pw', m: 'pm', y: 'py' };

const item = z.looseObject({
  url: z.string(),
  title: z.string().optional(),
  description: z.string().nullish(),
  age: z.string().nullish(),
  page_age: z.string().nullish(),
  properties: z
    .looseObject({ url: z.string().optional(), width: z.number().optional(), height: z.number().optional() })
    .optional(),
  thumbnail: z.looseObject({ src: z.string().optional() }).optional(),
});
const webSchema = z.looseObject({ web: z.looseObject({ results: z.array(item) }).optional() });
const listSchema = z.looseObject({ results: z.array(item) });

type Item = z.output<typeof item>;

/** The result items of an answer: `web.results` for web, `results` for news and images. */
function resultsOf(source: WebSearchQuery['source'], answer: unknown): Item[] {
  if (source === 'web') {
    const checked = webSchema.safeParse(answer);
    if (checked.success) return checked.data.web?.results ?? [];
  } else {
    const checked = listSchema.safeParse(answer);
    if (checked.success) return checked.data.results;
  }
  throw new CrawlkitError('SEARCH_PROVIDER_FAILED', 'The brave search provider answered JSON of another shape.');
}

export interface BraveOptions {
  /** The subscription token (`X-Subscription-Token`). */
  apiKey: string;
  /** @default 'https://api.search.brave.com/res/v1' */
  url?: string;
}

export function braveProvider(options: BraveOptions): WebSearchProvider {
  const base = (options.url ?? 'https://api.search.brave.com/res/v1').replace(/\/+$/, '');
  return {
    name: 'brave',
    sources: ['web', 'news', 'images'],
    unapplied: (query) =>
      unappliedOptions(query, {
        country: true,
        tbs: (tbs) => query.source !== 'images' && wholePeriod(tbs) !== undefined,
      }),
    async search(query: WebSearchQuery): Promise<WebResult[]> {
      const url = new URL(`${base}/${query.source}/search`);
      url.searchParams.set('q', withSites(query));
      url.searchParams.set('count', String(Math.min(query.limit, query.source === 'images' ? 100 : 20)));
      const period = wholePeriod(query.tbs);
      if (period && query.source !== 'images') url.searchParams.set('freshness', FRESHNESS[period]!);
      if (query.country) url.searchParams.set('country', query.country.toLowerCase());
      const answer = await providerJson('brave', url, { 'x-subscription-token': options.apiKey }, query.signal);
      const items = resultsOf(query.source, answer);
      return items.map((r) => {
        const result: WebResult = { url: r.url };
        if (r.title) result.title = r.title;
        if (r.description) result.description = r.description;
        const date = r.page_age ?? r.age;
        if (query.source === 'news' && date) result.date = date;
        if (query.source === 'images') {
          const image = r.properties?.url ?? r.thumbnail?.src;
          if (image) result.imageUrl = image;
          if (r.properties?.width) result.imageWidth = r.properties.width;
          if (r.properties?.height) result.imageHeight = r.properties.height;
        }
        return result;
      });
    },
  };
}
