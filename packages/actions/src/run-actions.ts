import { withinBudget } from '@crawlkit/options/within-budget';
import type { Page } from 'puppeteer-core';

import { capturePdf, captureScreenshot, type CaptureOutput } from './capture.js';
import { ActionError, actionFailed, describeAction, reasonOf } from './errors.js';
import { followNavigation, scriptNavigation } from './navigation.js';
import { sleep } from './sleep.js';
import { executeJavascript, ReturnTooLargeError } from './steps/javascript.js';
import { KeyComboError, pressKey, writeText } from './steps/keys.js';
import { PageTooLargeError, readPageHtml } from './steps/page-html.js';
import { click, NoMatchError, noMatch, scroll, StayedDisabledError } from './steps/pointer.js';
import type { Action, ActionFailureDetails, ActionResults, JavascriptReturn, RunActionsOptions } from './types.js';

const DEFAULTS = {
  timeoutMs: 60_000,
  maxJavascriptReturnBytes: 1_048_576,
  maxScrapeChars: 50 * 1024 * 1024,
  navigationGraceMs: 500,
  failureCaptureMs: 1_000,
};

/** A fresh, empty result set. */
export function emptyActionResults(): ActionResults {
  return { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
}

/**
 * Runs v2 page actions on `page` in order and collects what the capturing ones produce. Clicks and key presses
 * that navigate are followed; after every action that can change the page, `options.settle` waits for it to
 * become quiet.
 * The actions are trusted as typed: check a list from outside the type system with `validateActions` first.
 * @throws ActionError `SCRAPE_ACTION_ERROR` naming the failing action's index, type and selector, `SCRAPE_TIMEOUT` when
 * the budget runs out (naming the action it stopped at), `ABORTED`. The first two carry `details`: what the actions
 * before it produced and a screenshot of the page when it failed.
 */
export async function runActions(
  page: Page,
  actions: readonly Action[],
  options: RunActionsOptions = {},
): Promise<ActionResults> {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const budget: Budget = {
    timeoutMs,
    ...(options.loadMs === undefined ? {} : { loadMs: options.loadMs }),
    unfinished: options.loadUnfinished === true,
  };
  const deadline = Date.now() + timeoutMs;
  const remaining = () => deadline - Date.now();
  const settle = options.settle ?? (() => sleep(50, options.signal));
  const results = emptyActionResults();

  const output = {
    ...(options.outputDir === undefined ? {} : { outputDir: options.outputDir }),
    ...(options.warnings === undefined ? {} : { warnings: options.warnings }),
  };
  const runStep = async (index: number, action: Action): Promise<void> => {
    const selector = 'selector' in action ? action.selector : undefined;
    if (options.signal?.aborted) {
      throw new ActionError('ABORTED', `Aborted before ${describeAction(index, action.type, selector)}.`, {
        index,
        type: action.type,
        cause: options.signal.reason,
      });
    }
    const leftAtStart = remaining();
    try {
      if (timeoutMs < NO_TIME_MS || remaining() <= 0) throw outOfTime(index, action, selector, budget);
      const step = runOne(page, action, results, {
        remaining,
        settle,
        signal: options.signal,
        output,
        maxBytes: options.maxJavascriptReturnBytes ?? DEFAULTS.maxJavascriptReturnBytes,
        maxScrapeChars: options.maxScrapeChars ?? DEFAULTS.maxScrapeChars,
        graceMs: options.navigationGraceMs ?? DEFAULTS.navigationGraceMs,
      });
      // A step that never ends by itself (a script's promise that never settles) still ends with the budget.
      await withinBudget(step, remaining(), timeRanOut);
    } catch (error) {
      const captureMs = options.failureCaptureMs ?? DEFAULTS.failureCaptureMs;
      const times = { remainingMs: remaining(), leftAtStart };
      const failure = failureOf(error, index, action, selector, budget, times, options.signal);
      if (failure.code === 'ABORTED') throw failure;
      const told = withNoMatchHint(await withFrameHint(page, failure, captureMs), options.noMatchHint);
      throw await withEvidence(page, told, results, output, captureMs);
    }
  };
  // The load left the actions no time: the first is out of time as it starts. The popup watch below is not opened
  // for it: its two round trips to a loaded Chromium came out of the capture's reserve, past the scrape's timeout.
  if (timeoutMs < NO_TIME_MS && actions.length > 0) await runStep(0, actions[0]!); // throws
  // A window an action opens (a `target=_blank` link, `window.open`) is not followed: a warning says so. Chromium
  // tells it on the opener (`Page.windowOpen`) whether the window then opens or is closed at once (the fetcher's).
  let current = 0;
  const session = await page.createCDPSession().catch(() => undefined);
  session?.on('Page.windowOpen', ({ url }) => {
    options.warnings?.push(popupWarning(current, actions[current]!, url));
  });
  await session?.send('Page.enable').catch(() => undefined);
  try {
    for (const [index, action] of actions.entries()) {
      current = index;
      const gone = options.pageGone?.();
      if (gone) throw gone;
      await runStep(index, action);
    }
  } finally {
    await session?.detach().catch(() => undefined);
  }
  return results;
}

/** What a user reads of a window an action asked for: not followed, the actions went on on their own page. */
function popupWarning(index: number, action: Action, url: string): string {
  const selector = 'selector' in action ? action.selector : undefined;
  const what = url && url !== 'about:blank' ? `a new window (${url})` : 'a new window';
  return (
    `${describeAction(index, action.type, selector)} asked to open ${what}, which is not followed: the actions ` +
    'stay on the page they started on, so the ones after it ran there (scrape its URL to act on it).'
  );
}

/** A `wait` for a selector that nothing on the page (nor in its frames) matched within the time. */
const WAIT_NO_MATCH = new NoMatchError(undefined, true).message;

/** How long a `wait` for a selector waited (all the time the actions had left) and what gives it more. */
const waitedFor = (ms: number) =>
  ` (it waited ${Math.max(0, Math.round(ms))} ms, what the timeout had left: check the selector, or raise \`timeout\` ` +
  'if the element comes later)';

/** The `ActionError` a step's error stands for: an abort, the budget spent, or the action's own failure. */
function failureOf(
  error: unknown,
  index: number,
  action: Action,
  selector: string | undefined,
  budget: Budget,
  { remainingMs, leftAtStart }: { remainingMs: number; leftAtStart: number },
  signal: AbortSignal | undefined,
): ActionError {
  if (error instanceof ActionError) return error;
  if (signal?.aborted) {
    return new ActionError('ABORTED', `Aborted during ${describeAction(index, action.type, selector)}.`, {
      index,
      type: action.type,
      cause: error,
    });
  }
  if (remainingMs <= 0 || (error instanceof Error && error.name === 'TimeoutError')) {
    if (action.type === 'wait' && selector !== undefined && !starved(budget)) {
      return actionFailed(index, action.type, selector, `${WAIT_NO_MATCH}${waitedFor(leftAtStart)}`, error, true);
    }
    return outOfTime(index, action, selector, budget, error);
  }
  const noMatch = error instanceof NoMatchError && error.frameUrl === undefined;
  return actionFailed(index, action.type, selector, reasonFor(error), error, noMatch);
}

/**
 * A `wait` for a selector that ran out of time, told as a click's no-match is: naming the iframe the selector matches
 * in, if any (looked for within `captureMs`).
 */
async function withFrameHint(page: Page, failure: ActionError, captureMs: number): Promise<ActionError> {
  const { index, type, selector } = failure;
  if (type !== 'wait' || selector === undefined || !failure.noMatch || page.isClosed()) {
    return failure;
  }
  const found = noMatch(page, selector, true);
  found.catch(() => undefined);
  const hint = await withinBudget(found, captureMs, timeRanOut).catch(() => undefined);
  if (hint?.frameUrl === undefined) return failure;
  return actionFailed(index!, type, selector, hint.message, failure.cause);
}

/** A selector's no-match (not one naming the iframe it matches in) with the caller's `noMatchHint`. */
function withNoMatchHint(failure: ActionError, hint: string | undefined): ActionError {
  const { code, index, type, selector, message } = failure;
  if (hint === undefined || !failure.noMatch) return failure;
  const options = { index: index!, type: type!, selector, cause: failure.cause, noMatch: true };
  return new ActionError(code, `${message}. ${hint}`, options);
}

/**
 * `failure` with what the run had when it stopped (v2 error `details`): the action, the page's URL, what the actions
 * before it produced, and a screenshot of the page, when one comes within `captureMs`.
 */
async function withEvidence(
  page: Page,
  failure: ActionError,
  results: ActionResults,
  output: CaptureOutput,
  captureMs: number,
): Promise<ActionError> {
  let screenshot: string | undefined;
  if (captureMs > 0) {
    const shot = captureScreenshot(page, {}, { ...output, warnings: [] });
    shot.catch(() => undefined);
    screenshot = await withinBudget(shot, captureMs, timeRanOut).catch(() => undefined);
  }
  const details: ActionFailureDetails = {
    action: {
      index: failure.index!,
      type: failure.type!,
      ...(failure.selector === undefined ? {} : { selector: failure.selector }),
    },
    url: page.isClosed() ? '' : page.url(),
    actions: results,
    ...(screenshot === undefined ? {} : { screenshot }),
  };
  return new ActionError(failure.code, failure.message, {
    index: failure.index!,
    type: failure.type!,
    ...(failure.selector === undefined ? {} : { selector: failure.selector }),
    cause: failure.cause,
    details,
    noMatch: failure.noMatch === true,
  });
}

/** Answers a step past the time left: as out of time. */
function timeRanOut(): never {
  throw new OutOfBudgetError('The time ran out.');
}

/** A step that cannot end within the actions' time: the runner answers it as out of time. */
class OutOfBudgetError extends Error {
  override name = 'TimeoutError';
}

/** A timed wait longer than the time left: out of time now, not cut short. */
class WaitTooLongError extends OutOfBudgetError {}

interface StepContext {
  remaining: () => number;
  settle(remainingMs: number): Promise<void>;
  signal: AbortSignal | undefined;
  output: CaptureOutput;
  maxBytes: number;
  maxScrapeChars: number;
  graceMs: number;
}

async function runOne(page: Page, action: Action, results: ActionResults, ctx: StepContext): Promise<void> {
  const { output } = ctx;
  const settle = () => (ctx.remaining() > 0 ? ctx.settle(ctx.remaining()) : Promise.resolve());
  const withNavigation = async (input: () => Promise<void>) => {
    await followNavigation(page, input, ctx.graceMs, ctx.remaining(), ctx.signal);
    await settle();
  };
  switch (action.type) {
    case 'wait':
      if (action.selector !== undefined) {
        // A selector the page cannot parse fails now: waitForSelector would poll it until the time runs out.
        await (await page.$(action.selector))?.dispose();
        await page.waitForSelector(action.selector, {
          timeout: Math.max(1, ctx.remaining()),
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
      } else {
        // A wait longer than the time left is out of time now, not cut short (the page captured before it ended).
        if ((action.milliseconds ?? 0) > ctx.remaining()) throw new WaitTooLongError();
        await sleep(action.milliseconds ?? 0, ctx.signal);
      }
      return;
    case 'click':
      await withNavigation(() => click(page, action, ctx.remaining, output.warnings));
      return;
    case 'write':
      await writeText(page, action.text, output.warnings);
      await settle();
      return;
    case 'press':
      await withNavigation(() => pressKey(page, action.key));
      return;
    case 'scroll':
      await scroll(page, action);
      await settle();
      return;
    case 'screenshot':
      // half the time left at most, for what follows the capture
      results.screenshots.push(
        await captureScreenshot(page, action, output, { lazyImagesMs: Math.max(0, ctx.remaining() / 2) }),
      );
      return;
    case 'scrape': {
      const options = { timeoutMs: Math.max(1, ctx.remaining()), ...(ctx.signal ? { signal: ctx.signal } : {}) };
      const html = await readPageHtml(page, ctx.maxScrapeChars, options);
      // After the read: a navigation during it is followed, and the URL is that of the document read.
      results.scrapes.push({ url: page.url(), html });
      return;
    }
    case 'executeJavascript': {
      // A script that navigates (a form's submit(), `location.href = …`) is followed as a click is.
      let returned: JavascriptReturn = { type: 'undefined', value: null };
      let requested = false;
      const run = async () => {
        const ran = await scriptNavigation(page, () => executeJavascript(page, action.script, ctx.maxBytes));
        requested = ran.requested;
        if (ran.outcome.status === 'fulfilled') returned = ran.outcome.value;
        // Its value went with the page it left.
        else if (!requested || !/Execution context was destroyed/i.test(reasonOf(ran.outcome.reason))) {
          throw ran.outcome.reason;
        }
      };
      const grace = () => (requested ? ctx.graceMs : 0);
      if (await followNavigation(page, run, grace, ctx.remaining(), ctx.signal)) await settle();
      results.javascriptReturns.push(returned);
      return;
    }
    case 'pdf':
      results.pdfs.push(await capturePdf(page, action, output, Math.max(1, ctx.remaining())));
      return;
  }
}

/** The actions' time, and what the page's load took of the same timeout before them (when the caller tells it). */
interface Budget {
  timeoutMs: number;
  loadMs?: number;
  /** The load never finished (`loadUnfinished`). */
  unfinished: boolean;
}

/** The page's load took more of the timeout than it left the actions: that, not an action, is what ran out. */
const starved = ({ timeoutMs, loadMs }: Budget) => loadMs !== undefined && loadMs > timeoutMs;

/** Under this, the load left the actions "no time" (the budget floors at 1 ms). */
const NO_TIME_MS = 10;

function outOfTime(index: number, action: Action, selector: string | undefined, budget: Budget, cause?: unknown) {
  const waits = cause instanceof WaitTooLongError && action.type === 'wait' ? action.milliseconds : undefined;
  const at = describeAction(index, action.type, selector);
  const timeoutMs = Math.round(budget.timeoutMs);
  let message = `Actions ran out of time (${timeoutMs} ms) at ${at}`;
  // A wait longer than the load and the actions' time together would not fit however fast the page loaded: it is
  // named, not the load (which a loaded machine can make longer than what it leaves).
  const waitAlone = waits !== undefined && waits > budget.timeoutMs + (budget.loadMs ?? 0);
  if (starved(budget) && !waitAlone) {
    const left = timeoutMs < NO_TIME_MS ? 'no time' : `${timeoutMs} ms`;
    message = budget.unfinished
      ? `Actions ran out of time at ${at}: the page never finished loading (its DOMContentLoaded had not come ` +
        `after ${Math.round(budget.loadMs!)} ms, when the load was given up to capture the page as shown), ` +
        `leaving the actions ${left}; a longer \`timeout\` gives such a load longer too. Without the actions the ` +
        'page is captured as shown (formats: screenshot for its picture).'
      : `Actions ran out of time at ${at}: the page's load (and the waits before the actions) took ` +
        `${Math.round(budget.loadMs!)} ms of the timeout, leaving the actions ${left}; raise \`timeout\`.`;
  } else {
    message += waits === undefined ? '.' : `: it waits ${waits} ms, longer than the time left (raise the timeout).`;
  }
  return new ActionError('SCRAPE_TIMEOUT', message, {
    index,
    type: action.type,
    ...(selector === undefined ? {} : { selector }),
    cause,
  });
}

function reasonFor(error: unknown): string {
  if (
    error instanceof NoMatchError ||
    error instanceof ReturnTooLargeError ||
    error instanceof PageTooLargeError ||
    error instanceof KeyComboError ||
    error instanceof StayedDisabledError
  ) {
    return error.message;
  }
  const reason = reasonOf(error);
  if (/is not a valid selector|SyntaxError.*selector|Failed to execute 'querySelector/i.test(reason)) {
    return `invalid selector: ${reason}`;
  }
  if (/Unknown key/i.test(reason)) return reason;
  return reason;
}
