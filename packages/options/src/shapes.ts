import { z } from 'zod';

/** `true` when `A` and `B` are the same type (for compile-time checks that a schema matches its interface). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

/** A whole number above 0 (counts, sizes, milliseconds): the one positive-integer rule of crawlkit's options. */
export const positiveInt = z.number().int().positive();

/** A whole number of at least 0. */
export const nonNegativeInt = z.number().int().min(0);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object implementing an interface, recognised by its members (a store, a backend, a logger, an engine). */
export function objectWith<T>(what: string, ...members: string[]) {
  return z.custom<T>((value) => isObject(value) && members.every((m) => m in value), { error: `Expected ${what}` });
}

/** A function option (a DNS lookup, a render judge), passed through as it is. */
export function functionOption<T>(what: string) {
  return z.custom<T>((value) => typeof value === 'function', { error: `Expected ${what}` });
}
