/**
 * Every output format crawlkit knows, in the order their fields are produced: the fields read off the extraction
 * first, then those computed from them (a model's, the history's, the browser's). `v2/formats.ts` builds the request
 * schema from this list, and the scrape's stages ask it what the requested formats need.
 */
import type { AttributeSelector } from '@crawlkit/extractor';
import type { PageRequest } from '@crawlkit/fetcher';

import type { ExtractionNeeds } from '../extraction/extraction.js';
import { pushWarnings, type ExtractedState, type FetchedState } from '../scrape/scrape-state.js';
import { attributesFormat } from './attributes.js';
import { brandingFormat } from './branding.js';
import { changeTrackingFormat } from './change-tracking.js';
import type { AnyFormatModule } from './format-module.js';
import { highlightsFormat } from './highlights.js';
import { jobPostingFormat } from './job-posting.js';
import { jsonFormat } from './json.js';
import { htmlFormat, imagesFormat, linksFormat, markdownFormat, rawHtmlFormat } from './page-text-formats.js';
import { productFormat } from './product.js';
import { queryFormat, questionFormat } from './question.js';
import { rawBase64Format } from './raw-base64.js';
import { screenshotFormat } from './screenshot.js';
import { summaryFormat } from './summary.js';
import { audioFormat, deterministicJsonFormat, menuFormat, videoFormat } from './unavailable.js';

export const FORMAT_MODULES = [
  markdownFormat,
  htmlFormat,
  rawHtmlFormat,
  linksFormat,
  imagesFormat,
  attributesFormat,
  screenshotFormat,
  summaryFormat,
  jsonFormat,
  changeTrackingFormat,
  brandingFormat,
  highlightsFormat,
  questionFormat,
  queryFormat,
  productFormat,
  jobPostingFormat,
  rawBase64Format,
  audioFormat,
  videoFormat,
  menuFormat,
  deterministicJsonFormat,
] as const satisfies readonly AnyFormatModule[];

/** A validated format entry of a request. */
export interface FormatEntry {
  type: string;
}

const byType = new Map<string, AnyFormatModule>(FORMAT_MODULES.map((m) => [m.type, m]));

/** The module of a format type (every validated entry has one). */
export function formatModule(type: string): AnyFormatModule {
  const module = byType.get(type);
  if (!module) throw new TypeError(`No format module for \`${type}\`.`);
  return module;
}

/** Each module's place in production order. */
const rank = new Map<string, number>(FORMAT_MODULES.map((m, i) => [m.type, i]));

type Requested = readonly { readonly module: AnyFormatModule; readonly format: FormatEntry }[];

/**
 * Each formats list's requested modules, found once: a job's pages share their request's list (validated, never
 * changed after), which is asked about ten times a page.
 */
const requestedOf = new WeakMap<readonly FormatEntry[], Requested>();

/** The requested formats with their modules, in production order (a type asked twice in the order asked). */
function requested(formats: readonly FormatEntry[]): Requested {
  let known = requestedOf.get(formats);
  if (known) return known;
  const found: { module: AnyFormatModule; format: FormatEntry; rank: number }[] = [];
  for (const format of formats) {
    const module = byType.get(format.type);
    if (module) found.push({ module, format, rank: rank.get(format.type)! });
  }
  // Array sort is stable: formats of one type keep their order.
  known = Object.freeze(found.length > 1 ? found.sort((a, b) => a.rank - b.rank) : found);
  requestedOf.set(formats, known);
  return known;
}

/** What the extraction worker computes for `formats`: the union of every format's needs. */
export function extractionNeeds(formats: readonly FormatEntry[]): Required<ExtractionNeeds> {
  const needs = {
    markdown: false,
    html: false,
    rawHtml: false,
    links: false,
    images: false,
    attributes: [] as AttributeSelector[],
  };
  for (const { module, format } of requested(formats)) {
    const own = module.extraction?.(format);
    if (!own) continue;
    needs.markdown ||= own.markdown === true;
    needs.html ||= own.html === true;
    needs.rawHtml ||= own.rawHtml === true;
    needs.links ||= own.links === true;
    needs.images ||= own.images === true;
    if (own.attributes) needs.attributes.push(...own.attributes);
  }
  return needs;
}

/** The warning a format answers with under zero data retention instead of its field, if it has one. */
function zeroDataRetentionWarning(
  module: AnyFormatModule,
  format: FormatEntry,
  zeroDataRetention: boolean,
): string | undefined {
  return zeroDataRetention ? module.zeroDataRetentionWarning?.(format) : undefined;
}

/**
 * The first feature of `formats` that needs a language model (`'json format'`), or `undefined`. Under zero data
 * retention, a format that answers with a warning instead needs none.
 */
export function featureNeedingModel(formats: readonly FormatEntry[], zeroDataRetention = false): string | undefined {
  for (const { module, format } of requested(formats)) {
    if (zeroDataRetentionWarning(module, format, zeroDataRetention) !== undefined) continue;
    const feature = module.needsModel?.(format);
    if (feature) return feature;
  }
  return undefined;
}

/** Lets each requested format shape the page's fetch (browser, screenshot, actions of its own). */
export function shapeFetch(formats: readonly FormatEntry[], request: PageRequest): void {
  for (const { module, format } of requested(formats)) module.shapeFetch?.(format, request);
}

/** A fetch failure as the requested formats report it (a format needing a browser that cannot start). */
export function fetchError(formats: readonly FormatEntry[], error: unknown): unknown {
  let reported = error;
  for (const { module, format } of requested(formats)) {
    if (module.fetchError) reported = module.fetchError(format, reported);
  }
  return reported;
}

/** Whether every requested format lets a cached page answer. */
export function formatsReadCache(formats: readonly FormatEntry[]): boolean {
  return formatsNotReadingCache(formats).length === 0;
}

/** The requested formats that keep a cached page from answering by its age, by type. */
export function formatsNotReadingCache(formats: readonly FormatEntry[]): string[] {
  return requested(formats)
    .filter(({ module, format }) => !(module.cacheReadable?.(format) ?? true))
    .map(({ format }) => format.type);
}

/** Whether every requested format lets a cached page answer, at least once the site confirms it (a 304). */
export function formatsRevalidateCache(formats: readonly FormatEntry[]): boolean {
  return requested(formats).every(
    ({ module, format }) => (module.cacheReadable?.(format) ?? true) || (module.cacheRevalidatable?.(format) ?? false),
  );
}

/** Whether every requested format lets the fetched page be cached. */
export function formatsWriteCache(formats: readonly FormatEntry[]): boolean {
  return requested(formats).every(({ module, format }) => module.cacheWritable?.(format) ?? true);
}

const cacheKeyOf = new WeakMap<readonly FormatEntry[], readonly string[]>();

/** The formats' parts of the page cache key (each format that has one, asked for or not), made once per list. */
export function formatsCacheKey(formats: readonly FormatEntry[]): readonly string[] {
  let known = cacheKeyOf.get(formats);
  if (!known) {
    known = Object.freeze(
      FORMAT_MODULES.flatMap((module) => {
        const m = module as AnyFormatModule;
        return m.cacheKey ? [m.cacheKey(formats.find((f) => f.type === m.type))] : [];
      }),
    );
    cacheKeyOf.set(formats, known);
  }
  return known;
}

/** Runs the requested formats' after-fetch steps. */
export function afterFetch(state: FetchedState): void {
  for (const { module, format } of requested(state.request.formats)) module.afterFetch?.(format, state);
}

/**
 * Produces every requested format's field, in production order; under zero data retention, a format that would send
 * the page to the model or keep it gives its warning instead.
 */
export async function produceFormats(state: ExtractedState): Promise<void> {
  for (const { module, format } of requested(state.request.formats)) {
    const refused = zeroDataRetentionWarning(module, format, state.context.zeroDataRetention);
    if (refused !== undefined) pushWarnings(state, [refused]);
    else await module.produce(format, state);
  }
}

/** The page's base credits and surcharges of its formats: the highest base (else 1) plus every surcharge. */
export function formatCredits(formats: readonly FormatEntry[]): number {
  let base = 1;
  let surcharge = 0;
  for (const { module, format } of requested(formats)) {
    const credits = module.credits?.(format);
    if (credits?.base !== undefined) base = Math.max(base, credits.base);
    surcharge += credits?.surcharge ?? 0;
  }
  return base + surcharge;
}
