/** Pause: a fixed number of milliseconds, or until an element matching `selector` is in the DOM (exactly one). */
export interface WaitAction {
  type: 'wait';
  /** Milliseconds to wait (integer > 0). */
  milliseconds?: number;
  /** CSS selector to wait for. */
  selector?: string;
}

/** Click the first element matching `selector`, or every match with `all`. A navigation it causes is followed. */
export interface ClickAction {
  type: 'click';
  selector: string;
  /**
   * Click every matching element, in document order.
   * @default false
   */
  all?: boolean;
}

/** Type `text` into the focused element (click an input first to focus it). */
export interface WriteAction {
  type: 'write';
  text: string;
}

/**
 * Press one key (`Enter`, `Tab`, `ArrowDown`, `a`, ...; puppeteer key names), or a combination with modifiers held
 * (`Control+a`, `Shift+Tab`, `Control+Shift+ArrowLeft`; `Shift`, `Control`, `Alt`, `Meta`, `ControlOrMeta`, as in
 * Playwright). A navigation it causes is followed.
 */
export interface PressAction {
  type: 'press';
  key: string;
}

/** Scroll the page (or the element matching `selector`) by one screen. */
export interface ScrollAction {
  type: 'scroll';
  /** @default 'down' */
  direction?: 'up' | 'down';
  /** Element to scroll instead of the page; a non-scrollable element is scrolled into view. */
  selector?: string;
}

/** Screenshot settings shared by the screenshot action and the screenshot format. */
export interface ScreenshotSettings {
  /**
   * Capture the whole scrollable page, not just the viewport.
   * @default false
   */
  fullPage?: boolean;
  /** JPEG quality 1..100; when set the image is a JPEG, otherwise a PNG. */
  quality?: number;
  /** Viewport for this capture, in CSS pixels (width 1..7680, height 1..4320); restored afterwards. */
  viewport?: { width: number; height: number };
}

/** Take a screenshot; it is appended to `ActionResults.screenshots`. */
export interface ScreenshotAction extends ScreenshotSettings {
  type: 'screenshot';
}

/** Capture the current URL and HTML; appended to `ActionResults.scrapes`. */
export interface ScrapeAction {
  type: 'scrape';
}

/**
 * Run JavaScript in the page. The script is evaluated as an expression or program (its completion value is
 * returned; promises are awaited); a script with a top-level `return` runs as the body of an async function.
 * The value is appended to `ActionResults.javascriptReturns`.
 */
export interface ExecuteJavascriptAction {
  type: 'executeJavascript';
  script: string;
}

/** Paper formats of the pdf action. */
export type PdfFormat = 'A0' | 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'A6' | 'Letter' | 'Legal' | 'Tabloid' | 'Ledger';

/** Print the page to PDF; appended to `ActionResults.pdfs`. */
export interface PdfAction {
  type: 'pdf';
  /** @default 'Letter' */
  format?: PdfFormat;
  /** @default false */
  landscape?: boolean;
  /**
   * Rendering scale, 0.1..2 (Chromium's range).
   * @default 1
   */
  scale?: number;
}

/** One v2 page action (reference §5), discriminated on `type`. */
export type Action =
  | WaitAction
  | ClickAction
  | WriteAction
  | PressAction
  | ScrollAction
  | ScreenshotAction
  | ScrapeAction
  | ExecuteJavascriptAction
  | PdfAction;

/** The `type` of every action. */
export type ActionType = Action['type'];

/** Value returned by an `executeJavascript` action. */
export interface JavascriptReturn {
  /**
   * `typeof` the value in the page (`'string'`, `'number'`, `'boolean'`, `'object'` for objects, arrays and null,
   * `'undefined'`).
   */
  type: string;
  /**
   * The value as JSON data: `undefined` becomes null, and what JSON cannot hold the nearest JSON (DOM nodes their outer
   * HTML; a `Map` its `[key, value]` entries; a `Set` or typed array an array; an `Error` `{ name, message }`; bigints,
   * functions, symbols, `NaN` and `±Infinity` strings; a reference back to an enclosing object `"[Circular]"`).
   */
  value: unknown;
}

/** Results of the actions, one entry per capturing action, in order (v2 `document.actions`). */
export interface ActionResults {
  /** One per screenshot action: a `data:image/...;base64,` URL, or a file path when `outputDir` is set. */
  screenshots: string[];
  /** One per scrape action. */
  scrapes: { url: string; html: string }[];
  /** One per executeJavascript action. */
  javascriptReturns: JavascriptReturn[];
  /** One per pdf action: a `data:application/pdf;base64,` URL, or a file path when `outputDir` is set. */
  pdfs: string[];
}

/** What a run of actions had when one failed: the v2 error's `details` (`ActionError.details`). */
export interface ActionFailureDetails {
  /** The action that failed: its 0-based position in the list, its type and selector. */
  action: { index: number; type: string; selector?: string };
  /** The page's URL when it failed (after any navigation the actions before it caused). */
  url: string;
  /** What the actions before it produced, as a document's `actions` would hold them. */
  actions: ActionResults;
  /**
   * The page as it was when the action failed: a `data:image/png;base64,` URL, or a file path when `outputDir` is
   * set. Absent when the page could not be captured within `failureCaptureMs`.
   */
  screenshot?: string;
}

/** Options of `runActions`. */
export interface RunActionsOptions {
  /**
   * Budget for all actions together, in milliseconds; each action gets what is left. Waits for selectors and
   * navigations give up when it runs out.
   * @default 60000
   */
  timeoutMs?: number;
  /**
   * What the page's load (and the waits before the actions) took of the same overall timeout, in milliseconds. When
   * it took more than it left `timeoutMs`, running out of time is told as the load's doing (raise the timeout), not
   * an action's, whatever action it stopped at.
   * @default undefined (not told)
   */
  loadMs?: number;
  /**
   * The page's load never finished (its DOMContentLoaded never came: a script or stylesheet it waits for never
   * arrives) and was given up to capture the page as shown: a load that left the actions no time is then told so,
   * since a longer timeout gives such a load longer too.
   * @default false
   */
  loadUnfinished?: boolean;
  /** Aborts the run between and during actions. */
  signal?: AbortSignal;
  /**
   * Directory for screenshots and PDFs: each is written there as a file and its path returned. Unset, they come
   * back as base64 `data:` URLs.
   * @default undefined
   */
  outputDir?: string;
  /**
   * A sentence added to the error of a selector that matches nothing on the page: what the caller did to the page
   * before the actions that may explain it (the fetcher's: `blockAds` dismissed a cookie-consent prompt).
   * @default undefined (nothing added)
   */
  noMatchHint?: string;
  /**
   * Asked before each action: an error it returns ends the actions with that error, and the actions left do not run.
   * The caller's check that the page is still there (the fetcher's: an earlier action navigated to a refused or
   * unreachable URL, so the rest would run on the browser's error page, each waiting out its time for nothing).
   * @default undefined (never asked)
   */
  pageGone?: () => Error | undefined;
  /** Receives a note for each capture that was cut (a full-page screenshot of a very tall page). */
  warnings?: string[];
  /**
   * Largest JSON-serialised size of one `executeJavascript` return value, in bytes; a larger value fails the action.
   * @default 1048576 (1 MiB)
   */
  maxJavascriptReturnBytes?: number;
  /**
   * Longest document a `scrape` action reads, in characters; a longer one fails the action (nothing of it is sent).
   * @default 52428800 (50 Mi, the fetcher's `maxBodyBytes`)
   */
  maxScrapeChars?: number;
  /**
   * How long to watch for a navigation after a click or key press, in milliseconds. A navigation that starts
   * within it is waited for (until its DOM is ready, within the budget).
   * @default 500
   */
  navigationGraceMs?: number;
  /**
   * Longest wait for the screenshot of the page taken when an action fails (`ActionError.details.screenshot`), in
   * milliseconds, beyond `timeoutMs`; 0 takes none.
   * @default 1000
   */
  failureCaptureMs?: number;
  /**
   * Called after every action that can change the page (click, press, scroll, write) and after a followed
   * navigation, to wait for the page to settle (the fetcher passes its network and DOM idle wait here).
   * @default a 50 ms pause
   */
  settle?: (remainingMs: number) => Promise<void>;
}
