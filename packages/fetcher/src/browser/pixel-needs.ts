import type { Action, ScreenshotSettings } from '@crawlkit/actions';

/**
 * What a page load must show as pixels: whether it loads the resources that only change how the page looks.
 *
 * Images, media and fonts never change the DOM's text or its URLs (the `images` format reads `src`, `srcset` and
 * `poster`, not loaded pixels), so a scrape that takes no picture drops them: a photo-heavy page then costs its HTML
 * and scripts, not every photo (a 30-page, 600-image crawl: see `docs/performance-journal.md`). A screenshot (format
 * or action), a PDF action, a caller that measures the rendered page (`loadImages`: the `branding` format's logo
 * sizes) and a recording (a replay of it may take a screenshot) get the page as a person sees it.
 */
export interface PixelNeeds {
  /** The screenshot format's settings. @default none */
  screenshot?: ScreenshotSettings | undefined;
  /** The page's actions: a `screenshot` or `pdf` one needs the page as shown. @default none */
  actions?: readonly Action[] | undefined;
  /** `PageRequest.loadImages`: the caller measures the rendered page (`branding`). @default false */
  loadImages?: boolean | undefined;
  /**
   * The recording's sink (`record: true`): a recording is kept for replays, which may ask for a picture, so it holds
   * the page's images, media and fonts. @default none
   */
  onExchange?: unknown;
}

/** Resource types (puppeteer's names) a page that shows no pixels never loads. */
const PIXEL_ONLY_TYPES: ReadonlySet<string> = new Set(['image', 'media', 'font']);
const NONE: ReadonlySet<string> = new Set();

/** Whether the page must be rendered as shown: a screenshot, a PDF, a caller that measures images, a recording. */
export function needsPixels(request: PixelNeeds): boolean {
  return (
    request.screenshot !== undefined ||
    request.loadImages === true ||
    request.onExchange !== undefined ||
    (request.actions?.some((a) => a.type === 'screenshot' || a.type === 'pdf') ?? false)
  );
}

/** The resource types the request gate drops for `request`. */
export function droppedResourceTypes(request: PixelNeeds): ReadonlySet<string> {
  return needsPixels(request) ? NONE : PIXEL_ONLY_TYPES;
}
