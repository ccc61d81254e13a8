import { z } from 'zod';

import { KEY_COMBO, MODIFIER_NAMES, unknownKeyReason } from './steps/keys.js';
import type { Action } from './types.js';

/** Most actions in one list (v2). */
export const MAX_ACTIONS = 50;
/** Most total waiting in milliseconds: `waitFor` + every wait's milliseconds + 1 s per selector wait (v2). */
export const MAX_TOTAL_WAIT_MS = 60_000;
/** What a selector wait counts for in the total wait budget, in milliseconds (v2). */
export const SELECTOR_WAIT_BUDGET_MS = 1_000;

/** The v2 action types (reference §5). */
export const ACTION_TYPES = [
  'wait',
  'click',
  'write',
  'press',
  'scroll',
  'screenshot',
  'scrape',
  'executeJavascript',
  'pdf',
] as const;

const PDF_FORMATS = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'] as const;

const nonEmptyString = z
  .string({ error: 'must be a non-empty string' })
  .min(1, { error: 'must be a non-empty string' });
const boolean = z.boolean({ error: 'must be a boolean' });
const intIn = (min: number, max: number) => {
  const error = `must be an integer ${min}..${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

/** A capture's viewport in CSS pixels (screenshot action and screenshot format). */
export const viewportSchema = z.strictObject(
  { width: intIn(1, 7680), height: intIn(1, 4320) },
  { error: 'must be an object' },
);

const waitAction = z
  .strictObject({
    type: z.literal('wait'),
    milliseconds: z
      .number({ error: 'must be a positive integer' })
      .int({ error: 'must be a positive integer' })
      .positive({ error: 'must be a positive integer' })
      .optional(),
    selector: nonEmptyString.optional(),
  })
  .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), {
    message: "Either 'milliseconds' or 'selector' must be provided, but not both.",
  });

const clickAction = z.strictObject({ type: z.literal('click'), selector: nonEmptyString, all: boolean.default(false) });
const writeAction = z.strictObject({ type: z.literal('write'), text: z.string({ error: 'must be a string' }) });
const pressAction = z.strictObject({
  type: z.literal('press'),
  key: nonEmptyString
    .regex(KEY_COMBO, {
      error: `must be a key, or modifiers and a key joined by "+" (modifiers: ${MODIFIER_NAMES.join(', ')})`,
    })
    .superRefine((key, context) => {
      const reason = KEY_COMBO.test(key) ? unknownKeyReason(key) : undefined;
      if (reason !== undefined) context.addIssue({ code: 'custom', message: reason });
    }),
});

const scrollAction = z.strictObject({
  type: z.literal('scroll'),
  direction: z.enum(['up', 'down'], { error: 'must be "up" or "down"' }).default('down'),
  selector: nonEmptyString.optional(),
});

const screenshotAction = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: boolean.default(false),
  quality: intIn(1, 100).optional(),
  viewport: viewportSchema.optional(),
});

const scrapeAction = z.strictObject({ type: z.literal('scrape') });
const executeJavascriptAction = z.strictObject({ type: z.literal('executeJavascript'), script: nonEmptyString });

const pdfAction = z.strictObject({
  type: z.literal('pdf'),
  format: z.enum(PDF_FORMATS, { error: `must be one of ${PDF_FORMATS.join(', ')}` }).default('Letter'),
  landscape: boolean.default(false),
  scale: z
    .number({ error: 'must be a number 0.1..2' })
    .min(0.1, { error: 'must be a number 0.1..2' })
    .max(2, { error: 'must be a number 0.1..2' })
    .default(1),
});

/**
 * One v2 action (reference §5), with its defaults filled in. The one home of the action rules: crawlkit's v2 body
 * schema and `validateActions` both use it; the layers below (fetcher, `runActions`) take typed actions as they are.
 */
export const actionSchema = z.discriminatedUnion(
  'type',
  [
    waitAction,
    clickAction,
    writeAction,
    pressAction,
    scrollAction,
    screenshotAction,
    scrapeAction,
    executeJavascriptAction,
    pdfAction,
  ],
  {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      const type = (issue.input as { type?: unknown } | undefined)?.type;
      return `unknown type ${JSON.stringify(type)} (use one of: ${ACTION_TYPES.join(', ')})`;
    },
  },
);

/** An action as `actionSchema` returns it: the action with every default filled in. */
export type ResolvedAction = z.output<typeof actionSchema>;

// The schema takes exactly the documented `Action` types: the same types, and the same fields for each type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SameFields<A extends { type: string }, B extends { type: string }> = {
  [T in A['type'] | B['type']]: Same<keyof Extract<A, { type: T }>, keyof Extract<B, { type: T }>>;
}[A['type'] | B['type']];
const _sameAction: [
  Same<z.input<typeof actionSchema>, Action>,
  Same<SameFields<z.input<typeof actionSchema>, Action>, true>,
] = [true, true];

/** The v2 total wait of `actions` plus `waitFor`, in milliseconds (a selector wait counts 1 s). */
export function totalWaitMs(
  actions: readonly { type: string; milliseconds?: number | undefined; selector?: string | undefined }[],
  waitFor = 0,
): number {
  let total = waitFor;
  for (const action of actions) {
    if (action.type !== 'wait') continue;
    total += action.selector !== undefined ? SELECTOR_WAIT_BUDGET_MS : (action.milliseconds ?? 0);
  }
  return total;
}

/** The v2 messages of the list's broken limits: total wait (with `waitFor`) over 60 s, more than 50 actions. */
export function actionLimitProblems(
  actions: readonly Parameters<typeof totalWaitMs>[0][number][],
  waitFor = 0,
): string[] {
  const problems: string[] = [];
  if (totalWaitMs(actions, waitFor) > MAX_TOTAL_WAIT_MS) {
    problems.push('Total wait time (waitFor + wait actions) cannot exceed 60 seconds');
  }
  if (actions.length > MAX_ACTIONS) problems.push(`Number of actions cannot exceed ${MAX_ACTIONS}`);
  return problems;
}
