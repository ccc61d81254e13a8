import { safeParse } from '@crawlkit/options';
import type { z } from 'zod';

import { renamedKeysHint } from './renamed-keys.js';
import { toldIssue } from './told-issue.js';
import type { ErrorResponse } from './types.js';

/** Upstream's `error` for a body with a key its API version does not know (reference §1; v1 names its own docs). */
export const unrecognizedKeysSentence = (version: 'v1' | 'v2' = 'v2'): string =>
  `Unrecognized key in body -- please review the ${version} API documentation for request body changes`;

const UNRECOGNIZED_KEYS = unrecognizedKeysSentence();

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: ErrorResponse };

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/** The v2 `error` string for a set of issues: the strict-key message, else a custom rule's message, else a summary. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const told = toldIssue(issues);
  if (!told) return 'Bad Request';
  if (told.code === 'unrecognized_keys') {
    const where = told.path.length ? ` in ${formatPath(told.path)}` : '';
    const renamed = told.path.length ? '' : renamedKeysHint(told.keys);
    return `${UNRECOGNIZED_KEYS} (unknown${where}: ${told.keys.join(', ')})${renamed}`;
  }
  if (told.code === 'custom') return told.message;
  const path = formatPath(told.path);
  return `Bad Request: ${path ? `${path}: ` : ''}${told.message}`;
}

/** The key a schema takes its one required value under (`url`, `urls` or `query`), or undefined. */
function bodyKeyOf(schema: z.ZodType): 'url' | 'urls' | 'query' | undefined {
  // The key is found with a value any schema takes: the caller's own string may be no valid URL.
  const probes = { url: 'https://example.com/', urls: ['https://example.com/'], query: 'words' } as const;
  return (Object.keys(probes) as (keyof typeof probes)[]).find(
    (key) => safeParse(schema, { [key]: probes[key] }).success,
  );
}

/** What a body that is not an object is, in the words of the message. */
function kindOf(body: unknown): string {
  if (body === undefined) return 'none';
  if (body === null) return 'null';
  if (Array.isArray(body)) return 'an array';
  return typeof body === 'object' ? 'an object' : `a ${typeof body}`;
}

/**
 * For a body that is not an object: what it is and the body to write instead, under the key the schema takes
 * (`url`, `urls` or `query`), with the caller's string when it is one (the SDKs' `scrape(url, options)` is
 * `scrape({ url, ...options })` here).
 */
function notObjectHint(schema: z.ZodType, body: unknown): string {
  const key = bodyKeyOf(schema);
  if (!key) return '';
  const value = typeof body === 'string' ? body : key === 'query' ? '…' : 'https://…';
  return `, got ${kindOf(body)}: pass { ${key}: ${JSON.stringify(key === 'urls' ? [value] : value)}, ...options }`;
}

/** Parses a v2 body; bad input becomes the v2 error shape, never an exception. */
export function parseBody<S extends z.ZodType>(schema: S, given: unknown): ParseResult<z.output<S>> {
  // No body, for a schema without a `url`, `urls` or `query` to show, is read as {}: its issues name what it needs.
  const body = given === undefined && bodyKeyOf(schema) === undefined ? {} : given;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const hint = notObjectHint(schema, body);
    return {
      ok: false,
      error: {
        success: false,
        code: 'BAD_REQUEST',
        error: `Bad Request: the body must be a JSON object${hint}`,
        details: [],
      },
    };
  }
  const result = safeParse(schema, body);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues;
  return {
    ok: false,
    error: { success: false, code: 'BAD_REQUEST', error: describeIssues(issues), details: issues },
  };
}
