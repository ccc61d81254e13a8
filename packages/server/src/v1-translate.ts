/**
 * The v1 API as upstream still serves it, translated to the v2 bodies crawlkit runs and back (pure functions; the
 * routes are in `v1-routes.ts`). v1's differences: formats are strings (`screenshot@fullPage`, `extract` and `json`
 * with their options beside them in `extract`/`jsonOptions`, `changeTrackingOptions`), `parsePDF`, `geolocation`,
 * `maxAge` 0 by default (no cache), crawl's `ignoreSitemap`, `allowBackwardLinks` and path `maxDepth`, map's
 * `ignoreSitemap` (true by default) and `sitemapOnly`, map links as plain strings, and search's `lang` and its
 * results as one list (v2's `web`).
 */
import type { Document } from 'crawlkit';
import { isObject } from '@crawlkit/options';

type Body = Record<string, unknown>;

/** A v1 scrape body as v2 scrape options, and what the answer must turn back. */
export interface V1Scrape {
  options: Body;
  /** The `extract` format was asked: the v2 `json` result goes back as `extract`. */
  extract: boolean;
  /** The `json` format was asked too (else `json` is removed from the answer). */
  json: boolean;
  /** v1 options that cannot exist locally, said in the document's `warning`. */
  warnings: string[];
}

/** v1's LLM options (`prompt`, `systemPrompt`, `schema`) as a v2 json format. */
function jsonFormat(options: unknown): Body {
  const o = isObject(options) ? options : {};
  const prompt = [o.systemPrompt, o.prompt].filter((p): p is string => typeof p === 'string' && p !== '').join('\n\n');
  return {
    type: 'json',
    ...(o.schema !== undefined ? { schema: o.schema } : {}),
    ...(prompt ? { prompt } : {}),
    ...(typeof o.checkPromptInjection === 'boolean' ? { checkPromptInjection: o.checkPromptInjection } : {}),
  };
}

/** v1 scrape options (`POST /v1/scrape`, a batch, a crawl's `scrapeOptions`) as v2 scrape options. */
export function scrapeToV2(v1: Body): V1Scrape {
  const {
    formats = ['markdown'],
    extract: extractOptions,
    jsonOptions,
    changeTrackingOptions,
    parsePDF,
    geolocation,
    agent,
    ...rest
  } = v1;
  const options: Body = { ...rest };
  const warnings: string[] = [];
  let extract = false;
  let json = false;
  const out: unknown[] = [];
  for (const format of Array.isArray(formats) ? formats : [formats]) {
    switch (format) {
      case 'content':
        out.push('markdown');
        break;
      case 'screenshot':
        out.push({ type: 'screenshot' });
        break;
      case 'screenshot@fullPage':
        out.push({ type: 'screenshot', fullPage: true });
        break;
      case 'extract':
        extract = true;
        break;
      case 'json':
        json = true;
        break;
      case 'changeTracking':
        out.push({ type: 'changeTracking', ...(isObject(changeTrackingOptions) ? changeTrackingOptions : {}) });
        break;
      default:
        out.push(format);
    }
  }
  // v2 takes one json format: with both, `jsonOptions` drive it and `extract` gets the same answer.
  if (json || extract) out.push(jsonFormat(json ? jsonOptions : extractOptions));
  options.formats = out;
  if (parsePDF === false) options.parsers = [];
  if (geolocation !== undefined && options.location === undefined) options.location = geolocation;
  options.maxAge ??= 0;
  if (agent !== undefined) {
    warnings.push(
      'The FIRE-1 agent (`agent`) is a hosted feature that does not exist locally: the page was scraped without it.',
    );
  }
  return { options, extract, json, warnings };
}

/** A v2 document as v1 returns it: the json answer under `extract` when that was asked, v1's warnings added. */
export function documentToV1(document: Document, scrape: Pick<V1Scrape, 'extract' | 'json' | 'warnings'>): Body {
  const out: Body = { ...document };
  if (scrape.extract && 'json' in document) {
    out.extract = document.json;
    if (!scrape.json) delete out.json;
  }
  if (scrape.warnings.length) out.warning = [document.warning, ...scrape.warnings].filter(Boolean).join(' ');
  return out;
}

/** A job's documents (whose request is not at hand) as v1 returns them: a json answer is also `extract`. */
export function jobDocumentToV1(document: Document): Body {
  return 'json' in document ? { ...document, extract: document.json } : { ...document };
}

/** Path segments of a URL's path (the depth v1's `maxDepth` counts). */
function pathDepth(url: unknown): number {
  try {
    return new URL(String(url)).pathname.split('/').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** What is wrong with a v1 crawl option v2 has no key for (so v2's validation cannot name it), or undefined. */
function v1CrawlProblem(v1: Body): string | undefined {
  for (const key of ['ignoreSitemap', 'allowBackwardLinks'] as const) {
    if (v1[key] !== undefined && typeof v1[key] !== 'boolean') {
      return `Bad Request: \`${key}\` (v1) is true or false; got ${JSON.stringify(v1[key])}.`;
    }
  }
  const depth = v1.maxDepth;
  if (depth !== undefined && !(typeof depth === 'number' && Number.isInteger(depth) && depth >= 0)) {
    return `Bad Request: \`maxDepth\` (v1) is a whole number of path segments below the URL, 0 or more; got ${JSON.stringify(depth)}.`;
  }
  return undefined;
}

/**
 * A v1 crawl body as a v2 one, or the problem of a v1 option v2 has no key for. A `scrapeOptions` that is not an
 * object goes through unchanged, so the v2 validation names it.
 */
export function crawlToV2(v1: Body): { body: Body; warnings: string[] } | { problem: string } {
  const problem = v1CrawlProblem(v1);
  if (problem) return { problem };
  const { scrapeOptions, ignoreSitemap, allowBackwardLinks, maxDepth, ...rest } = v1;
  const body: Body = { ...rest };
  if (typeof ignoreSitemap === 'boolean') body.sitemap = ignoreSitemap ? 'skip' : 'include';
  if (typeof allowBackwardLinks === 'boolean' && body.crawlEntireDomain === undefined) {
    body.crawlEntireDomain = allowBackwardLinks;
  }
  // v1's maxDepth counts path segments below the start URL: deeper paths are excluded.
  if (typeof maxDepth === 'number') {
    const deepest = pathDepth(v1.url) + maxDepth;
    const excludes: unknown[] = Array.isArray(body.excludePaths) ? (body.excludePaths as unknown[]) : [];
    body.excludePaths = [...excludes, `^(?:/[^/]+){${deepest + 1},}/?$`];
  }
  if (scrapeOptions !== undefined && !isObject(scrapeOptions))
    return { body: { ...body, scrapeOptions }, warnings: [] };
  const scrape = scrapeToV2(isObject(scrapeOptions) ? scrapeOptions : {});
  body.scrapeOptions = scrape.options;
  return { body, warnings: scrape.warnings };
}

/** A v1 batch body as a v2 one. */
export function batchToV2(v1: Body): { body: Body; scrape: V1Scrape } {
  const { urls, webhook, appendToId, ignoreInvalidURLs, maxConcurrency, origin, integration, ...options } = v1;
  const scrape = scrapeToV2(options);
  const body: Body = { ...scrape.options, urls };
  for (const [key, value] of Object.entries({
    webhook,
    appendToId,
    ignoreInvalidURLs,
    maxConcurrency,
    origin,
    integration,
  })) {
    if (value !== undefined) body[key] = value;
  }
  return { body, scrape };
}

/** A v1 search body as a v2 one, and the v1 scrape (formats) its results' documents answer, when it scrapes. */
export function searchToV2(v1: Body): { body: Body; scrape?: V1Scrape; warnings: string[] } {
  const { lang, country, scrapeOptions, ...body } = v1;
  const warnings: string[] = [];
  // The v1 SDK sends lang "en" and country "us" with every search: they are its defaults, not the user's asking (a
  // search of the stored pages would warn that a country does not narrow it).
  if (country !== undefined && country !== 'us') body.country = country;
  if (lang !== undefined && lang !== 'en') {
    warnings.push(`\`lang\` (v1) has no v2 equivalent and was not used (got ${JSON.stringify(lang)}).`);
  }
  // A scrapeOptions that is not an object goes through, so the v2 validation names it.
  if (scrapeOptions !== undefined && !isObject(scrapeOptions)) return { body: { ...body, scrapeOptions }, warnings };
  // v1 scrapes the results only for formats asked: its SDK sends `{ formats: [] }` for results alone.
  const formats = isObject(scrapeOptions) ? scrapeOptions.formats : undefined;
  if (scrapeOptions === undefined || (Array.isArray(formats) && formats.length === 0)) return { body, warnings };
  const scrape = scrapeToV2(scrapeOptions);
  return { body: { ...body, scrapeOptions: scrape.options }, scrape, warnings: [...warnings, ...scrape.warnings] };
}

/** A v1 map body as a v2 one: `sitemapOnly` and `ignoreSitemap` (true by default in v1) become `sitemap`. */
export function mapToV2(v1: Body): Body {
  const { ignoreSitemap = true, sitemapOnly, ...rest } = v1;
  return { ...rest, sitemap: sitemapOnly === true ? 'only' : ignoreSitemap === false ? 'include' : 'skip' };
}

/** A v2 status address or job URL in the v1 paths. */
export function addressToV1(address: string): string {
  return address.replace(/\/v2\/(crawl|batch\/scrape)\//, '/v1/$1/');
}
