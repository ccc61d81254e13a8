import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { Page, PaperFormat } from 'puppeteer-core';

import type { PdfAction, ScreenshotSettings } from './types.js';

/** Where captured images and PDFs go. */
export interface CaptureOutput {
  /** Write each capture as a file under this directory and return its path; unset, return a `data:` URL. */
  outputDir?: string;
}

async function emit(bytes: Uint8Array, mime: string, extension: string, output: CaptureOutput): Promise<string> {
  if (output.outputDir === undefined) return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
  await mkdir(output.outputDir, { recursive: true });
  const file = join(output.outputDir, `${randomUUID()}.${extension}`);
  await writeFile(file, bytes);
  return file;
}

/**
 * Screenshot of `page`: PNG, or JPEG when `quality` is set; the viewport is switched for the capture when
 * `settings.viewport` is given and restored afterwards.
 * @returns a `data:image/png;base64,...` (or `image/jpeg`) URL, or a file path under `output.outputDir`.
 */
export async function captureScreenshot(
  page: Page,
  settings: ScreenshotSettings = {},
  output: CaptureOutput = {},
): Promise<string> {
  const previous = page.viewport();
  if (settings.viewport) {
    await page.setViewport({ ...(previous ?? {}), width: settings.viewport.width, height: settings.viewport.height });
  }
  try {
    const jpeg = settings.quality !== undefined;
    const bytes = await page.screenshot({
      type: jpeg ? 'jpeg' : 'png',
      ...(jpeg ? { quality: settings.quality } : {}),
      fullPage: settings.fullPage ?? false,
      captureBeyondViewport: settings.fullPage ?? false,
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
