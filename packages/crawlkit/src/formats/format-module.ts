import type { PageRequest } from '@crawlkit/fetcher';
import type { z } from 'zod';

import type { ExtractionNeeds } from '../extraction/extraction.js';
import type { ExtractedState, FetchedState } from '../scrape/scrape-state.js';

/**
 * One output format: its v2 request schema, what it needs of the rest of the scrape (extraction fields, the
 * browser, a language model, the page cache), and how it produces its document field. Everything a format does
 * lives in its module; `registry.ts` lists the modules. Adding a format is a module and a registry entry.
 *
 * `S` is the schema of the format's object form; `F` the entry as validated (`{ type, ...options }`).
 */
export interface FormatModule<S extends FormatSchema = FormatSchema, F extends z.output<S> = z.output<S>> {
  /** The `type` of the format entry (and, for most formats, the document field it fills). */
  readonly type: F['type'];
  /** The strict schema of the object form `{ type, ...options }`. */
  readonly schema: S;
  /** What the extraction worker must compute for it (markdown, html, the page's own text, links, …). */
  extraction?(format: F): ExtractionNeeds;
  /**
   * The feature a configured language model is needed for (`'json format'`), or `undefined`: a request that needs
   * one without a model is refused before any fetch.
   */
  needsModel?(format: F): string | undefined;
  /**
   * Under `zeroDataRetention`: the warning the format answers with instead of its field, when producing it would send
   * the page to the language model (whose provider may keep it) or keep it in the store; `undefined` when it runs as
   * usual. A format refused so needs no model either.
   */
  zeroDataRetentionWarning?(format: F): string | undefined;
  /** How it shapes the page's fetch: the browser, a screenshot, an action of its own. */
  shapeFetch?(format: F, request: PageRequest): void;
  /** Maps a fetch failure to its own error (a browser it needs cannot start), or returns it as it is. */
  fetchError?(format: F, error: unknown): unknown;
  /** Whether a cached page may answer a request with this format (a fresh page is needed otherwise). @default true */
  cacheReadable?(format: F): boolean;
  /**
   * With `cacheReadable` false: whether a cached copy may answer once the site has confirmed it, answering a
   * conditional refetch (`If-None-Match`, `If-Modified-Since`) with `304 Not Modified`. @default false
   */
  cacheRevalidatable?(format: F): boolean;
  /** Whether the page fetched for a request with this format may be written to the cache. @default true */
  cacheWritable?(format: F): boolean;
  /**
   * Its part of the page cache key, given its entry in the request (or `undefined` when it was not asked for): for
   * formats that change what the fetch returns (a screenshot).
   */
  cacheKey?(format: F | undefined): string;
  /** Runs right after the fetch, before the page is cached (the branding collector's result is taken out here). */
  afterFetch?(format: F, state: FetchedState): void;
  /** Credits: `base` replaces the page's 1 (the highest wins), `surcharge` adds to it. @default { base: 1 } */
  credits?(format: F): { base?: number; surcharge?: number };
  /** Fills its document field (and may add warnings) once the page is extracted. */
  produce(format: F, state: ExtractedState): void | Promise<void>;
}

/** The schema of a format's object form. */
export type FormatSchema = z.ZodType<{ type: string }>;

/** A module for any format entry (the registry's element type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFormatModule = FormatModule<FormatSchema, any>;

/** Declares a format module, its entry type inferred from its schema. */
export function defineFormat<S extends FormatSchema>(module: FormatModule<S>): FormatModule<S> {
  return module;
}
