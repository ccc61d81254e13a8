import { inspect } from 'node:util';

/**
 * A positive integer option, or `undefined` when unset.
 * @throws {TypeError} naming the option and the value given.
 */
export function positiveIntegerOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new TypeError(`Expected \`${name}\` to be a positive integer, got \`${inspect(value)}\``);
  }
  return value;
}
