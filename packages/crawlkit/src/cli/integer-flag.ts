import { CliError } from './errors.js';

/**
 * A whole-number flag: `undefined` when absent, otherwise the number, at least `min`.
 * @throws {CliError} naming the flag and the value given (exit code 2).
 */
export function integerFlag(flag: string, value: unknown, min: 0 | 1 = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    const expected = min === 1 ? 'a positive integer' : 'a whole number';
    throw new CliError(`Expected ${flag} to be ${expected}, got ${JSON.stringify(value)}`);
  }
  return n;
}
