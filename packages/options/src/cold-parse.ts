import type { z } from 'zod';

/**
 * Parses of one schema after which zod's compiled parser has paid for itself. zod compiles a parser for each object
 * schema the first time it parses with it (its JIT); in a new process the crawl request's first parse took 6.5 ms of
 * CPU compiled and 3.6 ms without, and each later parse about 5 µs more without (16 against 21 µs): even after about
 * 600 parses.
 */
export const COMPILE_AFTER = 512;

const parses = new WeakMap<z.ZodType, number>();

/**
 * `schema.safeParse(input)`, without zod's JIT for the schema's first `COMPILE_AFTER` parses: options parsed once
 * per object, and a request kind a process answers a few times, are not worth compiling a parser for. The result is
 * the same either way.
 */
export function safeParse<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  const count = parses.get(schema) ?? 0;
  if (count >= COMPILE_AFTER) return schema.safeParse(input);
  parses.set(schema, count + 1);
  return schema.safeParse(input, { jitless: true });
}
