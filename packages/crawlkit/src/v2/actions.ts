import { z } from 'zod';

import { viewportSchema } from './formats.js';

export const MAX_ACTIONS = 50;
export const MAX_TOTAL_WAIT_MS = 60_000;
/** A selector wait counts this much towards the total wait budget (reference §5). */
export const SELECTOR_WAIT_COST_MS = 1_000;

const waitAction = z
  .strictObject({
    type: z.literal('wait'),
    milliseconds: z.number().int().positive().optional(),
    selector: z.string().min(1).optional(),
  })
  .refine((a) => (a.milliseconds === undefined) !== (a.selector === undefined), {
    message: "Either 'milliseconds' or 'selector' must be provided, but not both.",
  });

const clickAction = z.strictObject({
  type: z.literal('click'),
  selector: z.string().min(1),
  all: z.boolean().default(false),
});

const writeAction = z.strictObject({ type: z.literal('write'), text: z.string() });
const pressAction = z.strictObject({ type: z.literal('press'), key: z.string().min(1) });

const scrollAction = z.strictObject({
  type: z.literal('scroll'),
  direction: z.enum(['up', 'down']).default('down'),
  selector: z.string().min(1).optional(),
});

const screenshotAction = z.strictObject({
  type: z.literal('screenshot'),
  fullPage: z.boolean().default(false),
  quality: z.number().int().min(1).max(100).optional(),
  viewport: viewportSchema.optional(),
});

const scrapeAction = z.strictObject({ type: z.literal('scrape') });
const executeJavascriptAction = z.strictObject({ type: z.literal('executeJavascript'), script: z.string() });

const pdfAction = z.strictObject({
  type: z.literal('pdf'),
  format: z.enum(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger']).default('Letter'),
  landscape: z.boolean().default(false),
  scale: z.number().min(0.1).max(2).default(1),
});

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
    error: (issue) =>
      issue.code === 'invalid_union' ? `Unknown action type. Use one of: ${ACTION_TYPES.join(', ')}` : undefined,
  },
);

export const actionsSchema = z.array(actionSchema);

export type ActionInput = z.input<typeof actionSchema>;
export type Action = z.output<typeof actionSchema>;

/** Milliseconds the actions may wait in total, as the reference counts them. */
export function totalActionWait(actions: readonly Action[]): number {
  let total = 0;
  for (const action of actions) {
    if (action.type !== 'wait') continue;
    total += action.milliseconds ?? SELECTOR_WAIT_COST_MS;
  }
  return total;
}
