import { z } from 'zod';

import { FORMAT_MODULES } from '../formats/registry.js';

/** Every format type, in the order their fields are produced. */
export const FORMAT_TYPES = FORMAT_MODULES.map<FormatType>((m) => m.type);

type Modules = (typeof FORMAT_MODULES)[number];

export type FormatType = Modules['type'];

const formatObject = z.discriminatedUnion(
  'type',
  FORMAT_MODULES.map((m) => m.schema) as unknown as [Modules['schema'], ...Modules['schema'][]],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `Unknown format. Use one of: ${FORMAT_TYPES.join(', ')} (json, screenshot, changeTracking, attributes, question, highlights and query also take an object with options)`
        : undefined,
  },
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
