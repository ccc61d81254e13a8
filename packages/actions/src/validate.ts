import { ActionError } from './errors.js';
import type { Action, ActionType } from './types.js';

/** Most actions in one list (v2). */
export const MAX_ACTIONS = 50;
/** Most total waiting in milliseconds: `waitFor` + every wait's milliseconds + 1 s per selector wait (v2). */
export const MAX_TOTAL_WAIT_MS = 60_000;
/** What a selector wait counts for in the total wait budget, in milliseconds (v2). */
export const SELECTOR_WAIT_BUDGET_MS = 1_000;

const PDF_FORMATS = new Set(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger']);
const FIELDS: Record<ActionType, readonly string[]> = {
  wait: ['milliseconds', 'selector'],
  click: ['selector', 'all'],
  write: ['text'],
  press: ['key'],
  scroll: ['direction', 'selector'],
  screenshot: ['fullPage', 'quality', 'viewport'],
  scrape: [],
  executeJavascript: ['script'],
  pdf: ['format', 'landscape', 'scale'],
};

const isInt = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** The v2 total wait of `actions` plus `waitFor`, in milliseconds. */
export function totalWaitMs(actions: readonly Action[], waitFor = 0): number {
  let total = waitFor;
  for (const action of actions) {
    if (action.type !== 'wait') continue;
    total += action.selector !== undefined ? SELECTOR_WAIT_BUDGET_MS : (action.milliseconds ?? 0);
  }
  return total;
}

/**
 * Checks an action list against reference §5: known types, required fields and their types, no unknown fields,
 * at most 50 actions, total wait within 60 s (counting `waitFor`). Messages are v2's where v2 has one.
 * @throws ActionError `BAD_REQUEST` naming the first problem and the action's index.
 */
export function validateActions(actions: readonly unknown[], waitFor = 0): asserts actions is Action[] {
  if (!Array.isArray(actions)) throw invalid('Expected `actions` to be an array.');
  if (actions.length > MAX_ACTIONS) throw invalid('Number of actions cannot exceed 50');
  actions.forEach((raw, index) => checkAction(raw, index));
  if (totalWaitMs(actions as Action[], waitFor) > MAX_TOTAL_WAIT_MS) {
    throw invalid('Total wait time (waitFor + wait actions) cannot exceed 60 seconds');
  }
}

function checkAction(raw: unknown, index: number): void {
  if (typeof raw !== 'object' || raw === null) throw invalid(`Action ${index} must be an object.`, index);
  const action = raw as Record<string, unknown>;
  const type = action.type;
  if (typeof type !== 'string' || !(type in FIELDS)) {
    throw invalid(`Action ${index} has an unknown type ${JSON.stringify(type)}.`, index);
  }
  const at = (field: string, rule: string) => invalid(`Action ${index} (${type}): \`${field}\` ${rule}.`, index, type);
  for (const key of Object.keys(action)) {
    if (key !== 'type' && !FIELDS[type as ActionType].includes(key)) throw at(key, 'is not a field of this action');
  }
  const optionalBool = (field: string) => {
    if (action[field] !== undefined && typeof action[field] !== 'boolean') throw at(field, 'must be a boolean');
  };
  const requiredString = (field: string) => {
    if (typeof action[field] !== 'string' || action[field] === '') throw at(field, 'must be a non-empty string');
  };
  switch (type as ActionType) {
    case 'wait': {
      const hasMs = action.milliseconds !== undefined;
      const hasSelector = action.selector !== undefined;
      if (hasMs === hasSelector) {
        throw invalid("Either 'milliseconds' or 'selector' must be provided, but not both.", index, type);
      }
      if (hasMs && !isInt(action.milliseconds, 1)) throw at('milliseconds', 'must be a positive integer');
      if (hasSelector) requiredString('selector');
      return;
    }
    case 'click':
      requiredString('selector');
      optionalBool('all');
      return;
    case 'write':
      if (typeof action.text !== 'string') throw at('text', 'must be a string');
      return;
    case 'press':
      requiredString('key');
      return;
    case 'scroll':
      if (action.direction !== undefined && action.direction !== 'up' && action.direction !== 'down') {
        throw at('direction', 'must be "up" or "down"');
      }
      if (action.selector !== undefined) requiredString('selector');
      return;
    case 'screenshot': {
      optionalBool('fullPage');
      if (action.quality !== undefined && !isInt(action.quality, 1, 100))
        throw at('quality', 'must be an integer 1..100');
      const viewport = action.viewport as Record<string, unknown> | undefined;
      if (viewport !== undefined) {
        if (typeof viewport !== 'object' || viewport === null) throw at('viewport', 'must be an object');
        if (!isInt(viewport.width, 1, 7680)) throw at('viewport.width', 'must be an integer 1..7680');
        if (!isInt(viewport.height, 1, 4320)) throw at('viewport.height', 'must be an integer 1..4320');
      }
      return;
    }
    case 'scrape':
      return;
    case 'executeJavascript':
      requiredString('script');
      return;
    case 'pdf':
      if (action.format !== undefined && !PDF_FORMATS.has(action.format as string)) {
        throw at('format', `must be one of ${[...PDF_FORMATS].join(', ')}`);
      }
      optionalBool('landscape');
      if (
        action.scale !== undefined &&
        (typeof action.scale !== 'number' || !(action.scale >= 0.1 && action.scale <= 2))
      ) {
        throw at('scale', 'must be a number 0.1..2');
      }
      return;
  }
}

function invalid(message: string, index?: number, type?: string): ActionError {
  return new ActionError('BAD_REQUEST', message, {
    ...(index === undefined ? {} : { index }),
    ...(type === undefined ? {} : { type }),
  });
}
