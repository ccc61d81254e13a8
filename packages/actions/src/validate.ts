import type { z } from 'zod';

import { ActionError } from './errors.js';
import { actionLimitProblems, actionSchema } from './schema.js';
import type { Action } from './types.js';

function invalid(message: string, index?: number, type?: string): ActionError {
  return new ActionError('BAD_REQUEST', message, {
    ...(index === undefined ? {} : { index }),
    ...(type === undefined ? {} : { type }),
  });
}

/** `Action 2 (click): \`selector\` must be a non-empty string.`: the first problem of one action. */
function describe(issue: z.core.$ZodIssue, index: number, type: string | undefined): string {
  const where = type === undefined ? `Action ${index}` : `Action ${index} (${type})`;
  if (issue.code === 'custom') return issue.message;
  if (issue.code === 'unrecognized_keys') {
    return `${where}: ${issue.keys.map((key) => `\`${key}\``).join(', ')} is not a field of this action.`;
  }
  if (issue.path.length === 0) return `${where}: ${issue.message}.`;
  return `${where}: \`${issue.path.join('.')}\` ${issue.message}.`;
}

/**
 * Checks an action list from outside the type system (JSON from a user) against reference §5, with the rules of
 * `actionSchema`: known types, required fields and their types, no unknown fields, at most 50 actions, total wait
 * within 60 s (counting `waitFor`). `runActions` and the fetcher take typed actions and do not check them again.
 * @throws ActionError `BAD_REQUEST` naming the first problem and the action's index.
 */
export function validateActions(actions: unknown, waitFor = 0): asserts actions is Action[] {
  if (!Array.isArray(actions)) throw invalid('Expected `actions` to be an array.');
  for (const [index, raw] of actions.entries()) {
    if (typeof raw !== 'object' || raw === null) throw invalid(`Action ${index} must be an object.`, index);
    const result = actionSchema.safeParse(raw);
    if (result.success) continue;
    const type = (raw as { type?: unknown }).type;
    const known = typeof type === 'string' && result.error.issues[0]?.code !== 'invalid_union' ? type : undefined;
    throw invalid(describe(result.error.issues[0]!, index, known), index, known);
  }
  const [problem] = actionLimitProblems(actions as Action[], waitFor);
  if (problem) throw invalid(problem);
}
