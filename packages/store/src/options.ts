import { InvalidOptionError } from '@crawlkit/options';

function describe(value: unknown): string {
  return `\`${String(value)}\` (${typeof value})`;
}

/** A non-negative integer option (or `Infinity` when `allowInfinity`), with its default. */
export function nonNegativeInteger(
  name: string,
  value: number | undefined,
  fallback: number,
  allowInfinity = false,
): number {
  if (value === undefined) return fallback;
  const valid =
    typeof value === 'number' && ((Number.isInteger(value) && value >= 0) || (allowInfinity && value === Infinity));
  if (!valid) {
    const expected = allowInfinity ? 'a non-negative integer or Infinity' : 'a non-negative integer';
    throw new InvalidOptionError(`Expected \`${name}\` to be ${expected}, got ${describe(value)}.`);
  }
  return value;
}

/** A positive integer option, with its default. */
export function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const result = nonNegativeInteger(name, value, fallback);
  if (result === 0) throw new InvalidOptionError(`Expected \`${name}\` to be a positive integer, got \`0\`.`);
  return result;
}

/** A non-empty string option. */
export function nonEmptyString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidOptionError(`Expected \`${name}\` to be a non-empty string, got ${describe(value)}.`);
  }
  return value;
}

/** One of the listed values, with its default. */
export function oneOf<T extends string>(name: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) {
    const list = allowed.map((a) => `\`${a}\``).join(', ');
    throw new InvalidOptionError(`Expected \`${name}\` to be one of ${list}, got ${describe(value)}.`);
  }
  return value;
}

/** A boolean option, with its default. */
export function boolean(name: string, value: boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new InvalidOptionError(`Expected \`${name}\` to be true or false, got ${describe(value)}.`);
  }
  return value;
}
