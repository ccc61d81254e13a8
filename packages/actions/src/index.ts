// Public surface of @crawlkit/actions: v2 page actions run on a puppeteer page.
export { runActions, emptyActionResults } from './run-actions.js';
export { validateActions } from './validate.js';
export {
  actionSchema,
  actionLimitProblems,
  totalWaitMs,
  viewportSchema,
  ACTION_TYPES,
  MAX_ACTIONS,
  MAX_TOTAL_WAIT_MS,
  SELECTOR_WAIT_BUDGET_MS,
} from './schema.js';
export type { ResolvedAction } from './schema.js';
export { captureScreenshot, capturePdf, MAX_SCREENSHOT_HEIGHT } from './capture.js';
export { HTML_CHUNK_CHARS, PageTooLargeError, readPageHtml, type ReadPageHtmlOptions } from './steps/page-html.js';
export { sleep } from './sleep.js';
export type { CaptureOutput, CaptureWaits } from './capture.js';
export { readCaptureUrl, toCaptureUrl } from './capture-url.js';
export type { CaptureData } from './capture-url.js';
export { ActionError, isActionError, reasonOf } from './errors.js';
export type { ActionErrorCode, ActionErrorOptions } from './errors.js';
export type {
  Action,
  ActionFailureDetails,
  ActionResults,
  ActionType,
  ClickAction,
  ExecuteJavascriptAction,
  JavascriptReturn,
  PdfAction,
  PdfFormat,
  PressAction,
  RunActionsOptions,
  ScrapeAction,
  ScreenshotAction,
  ScreenshotSettings,
  ScrollAction,
  WaitAction,
  WriteAction,
} from './types.js';
