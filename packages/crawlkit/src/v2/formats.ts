import { z } from 'zod';

import { FORMAT_MODULES } from '../formats/registry.js';

/** Every format type, in the order their fields are produced. */
export const FORMAT_TYPES = FORMAT_MODULES.map<FormatType>((m) => m.type);

type Modules = (typeof FORMAT_MODULES)[number];

/**
 * The formats a request may give by name alone (`'product'`, a string in `formats`): every format whose options are
 * all optional, read off each format's own schema. What lists the formats a caller may name (crawlkit's MCP server)
 * reads this, so that a new format is named there too.
 */
export const NAMED_FORMATS: readonly FormatType[] = FORMAT_MODULES.filter(
  (m) => m.schema.safeParse({ type: m.type }).success,
).map((m) => m.type);

export type FormatType = Modules['type'];

/** v1's format names that v2 writes another way (`/v1/` routes of `crawlkit serve` still take them), and how. */
const V1_FORMATS: Record<string, string> = {
  'screenshot@fullPage': "{ type: 'screenshot', fullPage: true }",
  extract: "{ type: 'json', prompt, schema }",
  content: "'markdown'",
};

/** The formats that take options beside their `type` (an object form), read off each format's own schema. */
const OPTIONED_FORMATS = FORMAT_MODULES.filter((m) => Object.keys(m.schema.shape).length > 1).map((m) => m.type);

/** The unknown format's message: v1's names are told their v2 form, others the list. */
function unknownFormat(input: unknown): string {
  const type = typeof input === 'object' && input !== null && 'type' in input ? input.type : undefined;
  if (typeof type === 'string' && Object.hasOwn(V1_FORMATS, type)) {
    return `Unknown format: '${type}' is a v1 format; in v2 write ${V1_FORMATS[type]}.`;
  }
  const optioned = `${OPTIONED_FORMATS.slice(0, -1).join(', ')} and ${OPTIONED_FORMATS.at(-1)}`;
  return `Unknown format. Use one of: ${FORMAT_TYPES.join(', ')} (${optioned} also take an object with options)`;
}

const formatObject = z.discriminatedUnion(
  'type',
  FORMAT_MODULES.map((m) => m.schema) as unknown as [Modules['schema'], ...Modules['schema'][]],
  { error: (issue) => (issue.code === 'invalid_union' ? unknownFormat(issue.input) : undefined) },
);

/** A format entry: the string form is normalised to `{ type }` (reference §1). */
export const formatSchema = z.preprocess(
  (value) => (typeof value === 'string' ? { type: value } : value),
  formatObject,
);

/** Formats that take options, so have no string form. */
type OptionsRequired = 'question' | 'highlights' | 'query';

/** A format as a request gives it: a format name (as `{ type }`), or an object with `type` and its options. */
export type FormatInput = Exclude<FormatType, OptionsRequired> | z.input<Modules['schema']>;
export type Format = z.output<typeof formatSchema>;

/** Finds the format of a type in a normalised list. */
export function findFormat<T extends Format['type']>(
  formats: readonly Format[],
  type: T,
): Extract<Format, { type: T }> | undefined {
  return formats.find((f): f is Extract<Format, { type: T }> => f.type === type);
}
