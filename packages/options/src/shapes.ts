import { z } from 'zod';

/** `true` when `A` and `B` are the same type (for compile-time checks that a schema matches its interface). */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;

/** A whole number above 0 (counts, sizes, milliseconds): the one positive-integer rule of crawlkit's options. */
export const positiveInt = z.number().int().positive();

/** A whole number of at least 0. */
export const nonNegativeInt = z.number().int().min(0);

/** A plain object (not null, not an array): what an option of objects and an interface's implementation are. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What `value` lacks of `members`, one phrase each (`` `fetch` is missing ``). A member is a property name, a path
 * into a member object (`pages.get`), and ends with `()` when it must be a function (`close()`).
 */
export function membersLacking(value: object, members: readonly string[]): string[] {
  const lacking: string[] = [];
  for (const member of members) {
    const callable = member.endsWith('()');
    const path = (callable ? member.slice(0, -2) : member).split('.');
    let at: unknown = value;
    for (const key of path)
      at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
    const name = `\`${path.join('.')}\``;
    if (at === undefined) lacking.push(`${name} is missing`);
    else if (callable && typeof at !== 'function') lacking.push(`${name} is not a function`);
  }
  return lacking;
}

/**
 * An object implementing an interface, recognised by its members (a store, a backend, a logger, an engine; see
 * `membersLacking` for how they are written). A value that lacks some is told which: "Expected a PageEngine with
 * name, renders, fetch and close: `fetch` is missing".
 */
export function objectWith<T>(what: string, ...members: string[]) {
  return z.custom<T>((value) => isObject(value) && membersLacking(value, members).length === 0, {
    error: (issue) => {
      const lacking = isObject(issue.input) ? membersLacking(issue.input, members) : [];
      return lacking.length > 0 ? `Expected ${what}: ${lacking.join(', ')}` : `Expected ${what}`;
    },
  });
}

/** A function option (a DNS lookup, a render judge), passed through as it is. */
export function functionOption<T>(what: string) {
  return z.custom<T>((value) => typeof value === 'function', { error: `Expected ${what}` });
}
