import { inspect } from 'node:util';

import { z } from 'zod';

/** `true` when `A` and `B` are the same type (for compile-time checks that a schema matches its interface). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

/** A whole number above 0 (counts, sizes, milliseconds). The one positive-integer rule of crawlkit's options. */
export const positiveInt = z.number().int().positive();

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An options object owned and checked by another package (fetcher's `browser`, `http`, `proxies`, `urlPolicy`). */
export function plainObject<T>() {
  return z.custom<T>(isObject, { error: 'Expected an object' });
}

/** An object implementing an interface, recognised by its methods or members (a store, a backend, a logger). */
export function objectWith<T>(what: string, ...members: string[]) {
  return z.custom<T>((value) => isObject(value) && members.every((m) => m in value), { error: `Expected ${what}` });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key as string];
  }
  return value;
}

function describeIssue(input: unknown, issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => `\`${[...path, key].join('.')}\``).join(', ');
    return `unknown option ${names} (check the spelling)`;
  }
  const value = valueAt(input, issue.path);
  const got = value === undefined ? '' : `, got \`${inspect(value, { depth: 0, breakLength: Infinity })}\``;
  return `\`${path.join('.')}\`: ${issue.message}${got}`;
}

/**
 * One message naming every bad option, unknown keys first (a misspelt key is the likeliest mistake):
 * ``Invalid options of new Crawlkit(): unknown option `concurency` (check the spelling); `engine`: …, got `'turbo'` ``.
 */
export function optionIssuesMessage(where: string, input: unknown, issues: readonly z.core.$ZodIssue[]): string {
  const ordered = [...issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  );
  return `Invalid options of ${where}: ${ordered.map((issue) => describeIssue(input, issue)).join('; ')}`;
}
