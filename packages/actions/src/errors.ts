import type { ActionFailureDetails } from './types.js';

/**
 * Stable codes of action failures. Match on `error.code`, never on the message.
 * - `SCRAPE_ACTION_ERROR`: an action failed on the page (v2's code; HTTP 500).
 * - `BAD_REQUEST`: the action list itself is invalid (unknown type, missing field, over a limit; HTTP 400).
 * - `SCRAPE_TIMEOUT`: the actions' time budget ran out.
 * - `ABORTED`: the caller's signal aborted the run.
 */
export type ActionErrorCode = 'SCRAPE_ACTION_ERROR' | 'BAD_REQUEST' | 'SCRAPE_TIMEOUT' | 'ABORTED';

const BRAND = Symbol.for('crawlkit.action-error');

export interface ActionErrorOptions {
  /** 0-based position of the failing action in the list. */
  index?: number;
  type?: string;
  selector?: string;
  cause?: unknown;
  /** What the run had when the action failed (set by `runActions`). */
  details?: ActionFailureDetails;
  /** The action's selector matched nothing on the page nor in its frames. */
  noMatch?: boolean;
}

/** A failed or invalid action. The message names the action's index, type and selector. */
export class ActionError extends Error {
  readonly code: ActionErrorCode;
  /** 0-based position of the failing action in the list. */
  readonly index?: number;
  readonly type?: string;
  readonly selector?: string;
  /**
   * What the run had when the action failed: the action, the page's URL, what the actions before it produced and
   * a screenshot of the page. Set on the `SCRAPE_ACTION_ERROR` and `SCRAPE_TIMEOUT` of `runActions`; the v2 error's
   * `details`.
   */
  readonly details?: ActionFailureDetails;
  /**
   * True when the action failed because its selector matched nothing on the page nor in its frames: a `click`'s,
   * `write`'s or `scroll`'s at once, a `wait`'s when its time ran out.
   */
  readonly noMatch?: true;
  readonly [BRAND] = true;

  constructor(code: ActionErrorCode, message: string, options: ActionErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ActionError';
    this.code = code;
    if (options.index !== undefined) this.index = options.index;
    if (options.type !== undefined) this.type = options.type;
    if (options.selector !== undefined) this.selector = options.selector;
    if (options.details !== undefined) this.details = options.details;
    if (options.noMatch === true) this.noMatch = true;
  }
}

/** True for an `ActionError` of any copy of this package. */
export function isActionError(error: unknown): error is ActionError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** `action 2 (click "#more")`: how messages name an action. */
export function describeAction(index: number, type: string, selector?: string): string {
  return selector === undefined ? `action ${index} (${type})` : `action ${index} (${type} ${JSON.stringify(selector)})`;
}

/** The `SCRAPE_ACTION_ERROR` for action `index`, in v2's message form plus what failed. */
export function actionFailed(
  index: number,
  type: string,
  selector: string | undefined,
  reason: string,
  cause?: unknown,
  noMatch = false,
) {
  const message = `Action(s) failed to complete. Error code: SCRAPE_ACTION_ERROR: ${describeAction(index, type, selector)} failed: ${reason}`;
  return new ActionError('SCRAPE_ACTION_ERROR', message, {
    index,
    type,
    ...(selector === undefined ? {} : { selector }),
    cause,
    noMatch,
  });
}

/**
 * The first line of puppeteer's message, for a `reason`. puppeteer rejects some calls with what is no `Error` but has
 * a `message` (a `ws:` endpoint nobody listens on gives the socket's `ErrorEvent`), where `String()` said
 * "[object Object]".
 */
export function reasonOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  const text = typeof message === 'string' && message ? message : String(error);
  return text.split('\n')[0]!.replace(/^Error: /, '');
}
