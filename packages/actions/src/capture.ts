import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Page, PaperFormat } from 'puppeteer-core';

import { toCaptureUrl } from './capture-url.js';
import { LAZY_IMAGES_MS, loadLazyImages } from './lazy-images.js';
import type { PdfAction, ScreenshotSettings } from './types.js';

/** Where captured images and PDFs go. */
export interface CaptureOutput {
  /** Write each capture as a file under this directory and return its path; unset, return a `data:` URL. */
  outputDir?: string;
  /** Receives a note for each capture that was cut (a full page taller than `MAX_SCREENSHOT_HEIGHT`). */
  warnings?: string[];
}

/** What a capture may wait for before it is taken. */
export interface CaptureWaits {
  /**
   * The time a full-page capture may spend loading the page's lazy images first (at most `LAZY_IMAGES_MS`), in ms;
   * 0 takes the page as it is.
   * @default 0
   */
  lazyImagesMs?: number;
}

/**
 * The tallest full-page screenshot, in CSS pixels: a taller page is captured from its top down to here, with a
 * warning. Chromium's capture of a very tall page is slow and large, and a JPEG cannot be over 65,535 pixels high
 * (Chromium then returns an empty image); 16,384 stays under that at a device scale factor of 3 (mobile).
 */
export const MAX_SCREENSHOT_HEIGHT = 16_384;

/** The page's content size, as the full-page capture sees it (a string: this package has no DOM types). */
const CONTENT_SIZE = `({
  width: Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0),
  height: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
})`;

function contentSize(page: Page): Promise<{ width: number; height: number }> {
  return page.evaluate(CONTENT_SIZE) as Promise<{ width: number; height: number }>;
}

async function emit(bytes: Uint8Array, mime: string, extension: string, output: CaptureOutput): Promise<string> {
  if (output.outputDir === undefined) return toCaptureUrl(bytes, mime);
  await mkdir(output.outputDir, { recursive: true });
  const file = join(output.outputDir, `${randomUUID()}.${extension}`);
  await writeFile(file, bytes);
  return file;
}

/**
 * Screenshot of `page`: PNG, or JPEG when `quality` is set; the viewport is switched for the capture when
 * `settings.viewport` is given and restored afterwards. A full page has its lazy images loaded first, within
 * `waits.lazyImagesMs`. A full page taller than `MAX_SCREENSHOT_HEIGHT` is cut
 * there, with a note in `output.warnings`.
 * @returns a `data:image/png;base64,...` (or `image/jpeg`) URL, or a file path under `output.outputDir`.
 */
export async function captureScreenshot(
  page: Page,
  settings: ScreenshotSettings = {},
  output: CaptureOutput = {},
  waits: CaptureWaits = {},
): Promise<string> {
  const previous = page.viewport();
  if (settings.viewport) {
    await page.setViewport({ ...(previous ?? {}), width: settings.viewport.width, height: settings.viewport.height });
  }
  try {
    const jpeg = settings.quality !== undefined;
    const fullPage = settings.fullPage ?? false;
    // before the page is measured: an image that loads may make it taller
    if (fullPage) await loadLazyImages(page, Math.min(LAZY_IMAGES_MS, waits.lazyImagesMs ?? 0));
    const size = fullPage ? await contentSize(page) : undefined;
    const cut = size !== undefined && size.height > MAX_SCREENSHOT_HEIGHT;
    if (cut) {
      output.warnings?.push(
        `The full-page screenshot was cut at ${MAX_SCREENSHOT_HEIGHT} px: the page is ${size.height} px tall.`,
      );
    }
    const bytes = await page.screenshot({
      type: jpeg ? 'jpeg' : 'png',
      ...(jpeg ? { quality: settings.quality } : {}),
      ...(cut ? { clip: { x: 0, y: 0, width: size.width, height: MAX_SCREENSHOT_HEIGHT } } : { fullPage }),
      captureBeyondViewport: fullPage,
    });
    return await emit(bytes, jpeg ? 'image/jpeg' : 'image/png', jpeg ? 'jpg' : 'png', output);
  } finally {
    if (settings.viewport && previous) await page.setViewport(previous);
  }
}

/**
 * The page printed to PDF with backgrounds.
 * @returns a `data:application/pdf;base64,...` URL, or a file path under `output.outputDir`.
 */
export async function capturePdf(
  page: Page,
  settings: Omit<PdfAction, 'type'> = {},
  output: CaptureOutput = {},
  timeoutMs = 30_000,
): Promise<string> {
  const bytes = await page.pdf({
    format: (settings.format ?? 'Letter') as PaperFormat,
    landscape: settings.landscape ?? false,
    scale: settings.scale ?? 1,
    printBackground: true,
    timeout: timeoutMs,
  });
  return emit(bytes, 'application/pdf', 'pdf', output);
}
