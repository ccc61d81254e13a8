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
  /** The screenshot format's settings (`PageRequest.screenshot`). @default none */
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

/**
 * The pictures of one page load, decided once from its request: the request gate reads which resource types it
 * drops, the browser engine whether it captures the screenshot format and lets a full page load its lazy images.
 */
export interface PagePictures {
  /** The screenshot format's capture, taken once the page settled and its actions ran; undefined: none. */
  readonly screenshot: ScreenshotSettings | undefined;
  /** Whether the page is rendered as a person sees it (its images, media and fonts loaded). */
  readonly showsPixels: boolean;
  /** The resource types (puppeteer's names) the request gate drops: those of pixels, when the page shows none. */
  readonly droppedTypes: ReadonlySet<string>;
}

/** Resource types (puppeteer's names) a page that shows no pixels never loads. */
const PIXEL_ONLY_TYPES: ReadonlySet<string> = new Set(['image', 'media', 'font']);
const NONE: ReadonlySet<string> = new Set();

/** The page's pictures: a screenshot, a PDF, a caller that measures images or a recording render it as shown. */
export function pagePictures(request: PixelNeeds): PagePictures {
  const showsPixels =
    request.screenshot !== undefined ||
    request.loadImages === true ||
    request.onExchange !== undefined ||
    (request.actions?.some((a) => a.type === 'screenshot' || a.type === 'pdf') ?? false);
  return { screenshot: request.screenshot, showsPixels, droppedTypes: showsPixels ? NONE : PIXEL_ONLY_TYPES };
}

/**
 * The time a full-page capture of the page may spend loading its lazy images, of `availableMs`: none for a page that
 * shows no pixels (its images are refused, so there is nothing to wait for).
 */
export function lazyImagesMs(pictures: PagePictures, availableMs: number): number {
  return pictures.showsPixels ? Math.max(0, availableMs) : 0;
}
