import { inspect } from 'node:util';

import type { z } from 'zod';

import { safeParse } from './cold-parse.js';
import { InvalidOptionError } from './invalid-option-error.js';
import { isObject } from './shapes.js';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key as string];
  }
  return value;
}

/** What a branch of a union takes, in words, from the issue it gave at its top (`"strict"`, `an object`). */
function formOf(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === 'invalid_value') return issue.values.map((v) => JSON.stringify(v)).join(' or ');
  if (issue.code === 'invalid_type')
    return /^[aeiou]/.test(issue.expected) ? `an ${issue.expected}` : `a ${issue.expected}`;
  return undefined;
}

/**
 * A union's issue as the issue of the form the value meant: the branch that went deepest into the value (an object
 * of the object form, wrong inside), else the list of forms it takes. Zod's own says only "Invalid input".
 */
function unionIssue(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue {
  const depth = (branch: z.core.$ZodIssue[]) => Math.max(0, ...branch.map((i) => i.path.length));
  const deepest = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0];
  if (deepest && depth(deepest) > 0 && deepest[0]) {
    const inner = deepest.find((i) => i.path.length > 0) ?? deepest[0];
    return { ...inner, path: [...issue.path, ...inner.path] };
  }
  const forms = issue.errors.map((branch) => (branch[0] ? formOf(branch[0]) : undefined));
  if (forms.length === 0 || forms.some((f) => f === undefined)) return issue;
  return { ...issue, message: `expected ${forms.join(' or ')}` };
}

function describeIssue(input: unknown, given: z.core.$ZodIssue, prefix: readonly string[]): string {
  const issue = given.code === 'invalid_union' ? unionIssue(given) : given;
  const path = [...prefix, ...issue.path.map(String)];
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => `\`${[...path, key].join('.')}\``).join(', ');
    return `unknown option ${names} (check the spelling)`;
  }
  const value = valueAt(input, issue.path);
  const got = value === undefined ? '' : `, got \`${inspect(value, { depth: 0, breakLength: Infinity })}\``;
  return `\`${path.join('.') || 'options'}\`: ${issue.message}${got}`;
}

/**
 * One message naming every bad option, unknown keys first (a misspelt key is the likeliest mistake):
 * ``Invalid options of new Crawlkit(): unknown option `concurency` (check the spelling); `engine`: …, got `'turbo'` ``.
 * `prefix` is the path of `input` within the caller's own options (`['browser']`).
 */
export function optionIssuesMessage(
  where: string,
  input: unknown,
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly string[] = [],
): string {
  const ordered = [...issues].sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  );
  return `Invalid options of ${where}: ${ordered.map((issue) => describeIssue(input, issue, prefix)).join('; ')}`;
}

/**
 * Checks and defaults the options of `where` (`'new Fetcher()'`) against its schema, the one place their rules and
 * defaults live.
 * @throws {InvalidOptionError} naming every bad option by its path.
 */
export function parseOptions<S extends z.ZodType>(schema: S, input: unknown, where: string): z.output<S> {
  const result = safeParse(schema, input ?? {});
  if (result.success) return result.data;
  throw new InvalidOptionError(optionIssuesMessage(where, input, result.error.issues), {
    details: result.error.issues,
  });
}
