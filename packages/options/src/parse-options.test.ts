import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { parseOptions } from './parse-options.js';

/** An option that is one word or an object of its own, as `urlPolicy` ('strict' or a policy) is. */
const schema = z.strictObject({
  policy: z.union([z.literal('strict'), z.strictObject({ allowedHosts: z.array(z.string()).optional() })]).optional(),
  learning: z.union([z.literal(false), z.strictObject({ share: z.number().min(0).max(1) })]).optional(),
});

const messageOf = (input: unknown) => {
  try {
    parseOptions(schema, input, 'thing()');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('an option of several forms', () => {
  it('that matches none says which forms it takes', () => {
    expect(messageOf({ policy: 'lax' })).toBe(
      'Invalid options of thing(): `policy`: expected "strict" or an object, got `\'lax\'`',
    );
    expect(messageOf({ learning: true })).toBe(
      'Invalid options of thing(): `learning`: expected false or an object, got `true`',
    );
  });

  it('whose object form is wrong is told what is wrong inside it, by its path', () => {
    expect(messageOf({ policy: { allowedHosts: 'a.com' } })).toBe(
      "Invalid options of thing(): `policy.allowedHosts`: Invalid input: expected array, received string, got `'a.com'`",
    );
    expect(messageOf({ learning: { share: 2 } })).toBe(
      'Invalid options of thing(): `learning.share`: Too big: expected number to be <=1, got `2`',
    );
  });
});
