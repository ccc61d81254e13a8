import type { z } from 'zod';

import { CrawlkitError } from '../errors.js';

/**
 * A kind of JSON record crawlkit keeps in a store: encoded with its version (`v`), decoded once where it is read,
 * migrated from older versions and checked against its schema. A record that fails the check, or was written by a
 * newer crawlkit, is `STORE_RECORD_INVALID`, never a half-read object. A field its schema does not know (one a newer
 * crawlkit added without a new version) is kept through a read and a write, never dropped.
 */
export interface RecordCodec<T> {
  /** What the record is, for messages (`job request`, `webhook delivery`). */
  readonly name: string;
  /** The version written. Records without `v` are version 0. */
  readonly version: number;
  encode(value: T): string;
  decode(text: string): T;
}

export interface RecordCodecOptions<S extends z.ZodType> {
  name: string;
  version: number;
  schema: S;
  /**
   * `migrations[n]` turns a version-`n` record into a version-`n + 1` one. A missing step keeps the record as it is.
   */
  migrations?: Record<number, (record: Record<string, unknown>) => Record<string, unknown>>;
  /**
   * A check by hand in place of the schema's parse, for a record read once a page (a recrawl's kept extractions): its
   * problem, or undefined when the record has the schema's shape. The record is then used as it is (no defaults, no
   * keys stripped), so only for schemas without either. @default the schema's parse
   */
  check?: (record: Record<string, unknown>) => string | undefined;
}

/**
 * The fields of a decoded record that the schema does not know. They ride on the decoded value under a symbol, so that
 * a spread or a rest of it (`{ ...stored, seedLanded }`) carries them to `encode`, which writes them back; JSON
 * answers never show them (`JSON.stringify` skips symbol keys).
 */
const UNKNOWN_FIELDS = Symbol('crawlkit.unknownFields');

/** `data` (the schema's parse of `record`) with the fields of `record` the parse dropped kept beside it. */
function keepingUnknown<T>(record: Record<string, unknown>, data: T): T {
  if (!isRecord(data)) return data;
  const unknown = Object.entries(record).filter(([key]) => !Object.hasOwn(data, key));
  if (unknown.length > 0) (data as Record<symbol, unknown>)[UNKNOWN_FIELDS] = Object.fromEntries(unknown);
  return data;
}

function invalid(name: string, problem: string): CrawlkitError {
  return new CrawlkitError(
    'STORE_RECORD_INVALID',
    `A ${name} in the store cannot be read: ${problem}. The store was damaged, or written by another crawlkit.`,
  );
}

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Defines the codec of one kind of record from its schema at the current version. */
export function recordCodec<S extends z.ZodType<object>>(options: RecordCodecOptions<S>): RecordCodec<z.output<S>> {
  const { name, version, schema, migrations = {}, check } = options;
  return {
    name,
    version,
    encode: (value) => {
      const unknown = (value as Record<symbol, unknown>)[UNKNOWN_FIELDS];
      return JSON.stringify({ v: version, ...(isRecord(unknown) ? unknown : {}), ...value });
    },
    decode: (text) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw invalid(name, 'it is not JSON');
      }
      if (!isRecord(parsed)) throw invalid(name, 'it is not an object');
      const { v = 0, ...fields } = parsed;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
        throw invalid(name, `its version ${String(v)} is not one`);
      if (v > version)
        throw invalid(name, `it has version ${v}, and this crawlkit reads up to ${version}: upgrade crawlkit`);
      let record = fields;
      for (let at = v; at < version; at++) record = migrations[at]?.(record) ?? record;
      if (check) {
        const problem = check(record);
        if (problem) throw invalid(name, problem);
        return record as z.output<S>;
      }
      const checked = schema.safeParse(record);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        throw invalid(name, `${issue.path.join('.') || 'the record'}: ${issue.message}`);
      }
      return keepingUnknown(record, checked.data);
    },
  };
}
