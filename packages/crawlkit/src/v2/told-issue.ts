/**
 * The issue a v2 `BAD_REQUEST`'s `error` string tells of: the strict-key one, else a custom rule's, else the first.
 * Its own module, without zod: the command line reads it to name the flag at fault, and must start without zod.
 */
export function toldIssue<I extends { code?: unknown }>(issues: readonly I[]): I | undefined {
  return issues.find((i) => i.code === 'unrecognized_keys') ?? issues.find((i) => i.code === 'custom') ?? issues[0];
}
