/**
 * Tesseract (tesseract.js, WebAssembly) with the English model of `@tesseract.js-data/eng`, read from disk: nothing
 * is downloaded at run time (tesseract.js fetches a model only when its `langPath` is a URL or unset). One
 * recognizer per thread (each extraction worker has its own), started on the first page to read and stopped after a
 * minute without work; a page that passes the deadline stops it (Tesseract cannot be interrupted otherwise).
 */
import { clearTimeout, setTimeout } from 'node:timers';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import type { OcrLine } from '@crawlkit/extractor';
import { dependencyFile } from '@crawlkit/options/lazy-module';
import { withinBudget } from '@crawlkit/options/within-budget';

import { DocumentError, isDocumentError } from '../errors.js';

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
/** Tesseract's page as tesseract.js gives it with its `blocks` output: blocks of paragraphs of lines. */
interface Page {
  text: string;
  blocks:
    | { paragraphs: { lines: { text: string; bbox: Box; baseline: Box; rowAttributes: { rowHeight: number } }[] }[] }[]
    | null;
}
interface Recognizer {
  recognize(image: Buffer, options: object, output: { text: boolean; blocks: boolean }): Promise<{ data: Page }>;
  terminate(): Promise<unknown>;
}

/** What OCR read on an image: its lines with their positions, and its plain text. */
export interface Recognized {
  text: string;
  /** Tesseract's lines in its reading order, in pixels. */
  lines: OcrLine[];
}

/** The versions of `@tesseract.js-data/eng` this package reads (its `dependencies` entry). */
export const OCR_DATA_RANGE = '^1.0.0';
/** The command that installs OCR's language data where it is missing. */
export const OCR_DATA_INSTALL = `npm install @tesseract.js-data/eng@${OCR_DATA_RANGE}`;

const IDLE_MS = 60_000;
const require = createRequire(import.meta.url);

let current: Promise<Recognizer> | undefined;
/** `current` once it has started. */
let ready: Promise<Recognizer> | undefined;
let idle: NodeJS.Timeout | undefined;
let turn: Promise<unknown> = Promise.resolve();

/**
 * The files tesseract.js reads by paths of its own, which a file tracer (Next's standalone output, `@vercel/nft`) does
 * not see: the LSTM model (`best_int`, 2.9 MB, the one tesseract.js itself picks for its LSTM engine), its worker
 * thread's script, and its WebAssembly builds, of which the worker loads one by the CPU's features (tesseract.js-core
 * is a dependency of this package for that, at tesseract.js's range). Written where tracers read them: the code by
 * `require.resolve` literals, the model at the paths Node looks in (`dependencyFile`: Next's tracer dropped every
 * reference of the file for a `require.resolve` of the `.gz`, a file of no module type, and no tracer follows a folder
 * joined at run time). Resolved when a recognizer starts, so that an install without them fails OCR with their name,
 * not every extraction worker.
 */
function tesseractFiles(): { model: string; code: string[] } {
  const model = dependencyFile(
    [
      join(import.meta.dirname, '../../node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'),
      join(import.meta.dirname, '../../../../@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'),
    ],
    () => join(dirname(resolveOcrData()), '4.0.0_best_int/eng.traineddata.gz'),
  );
  const code = [
    // tesseract.js starts this file as its worker thread by a joined path: Next's tracer copied it alone, without the
    // modules it requires (its `require('..')` among them)
    require.resolve('tesseract.js/src/worker-script/node/index.js'),
    require.resolve('tesseract.js/src/worker-script/index.js'),
    // bundlers leave these be (a bundle of crawlkit stops on PACKAGE_BUNDLED, not on a .wasm); tracers copy them
    require.resolve(/* webpackIgnore: true */ /* turbopackIgnore: true */ 'tesseract.js-core/tesseract-core.wasm'),
    require.resolve(/* webpackIgnore: true */ /* turbopackIgnore: true */ 'tesseract.js-core/tesseract-core-lstm.wasm'),
    require.resolve(/* webpackIgnore: true */ /* turbopackIgnore: true */ 'tesseract.js-core/tesseract-core-simd.wasm'),
    require.resolve(
      /* webpackIgnore: true */ /* turbopackIgnore: true */ 'tesseract.js-core/tesseract-core-simd-lstm.wasm',
    ),
    require.resolve(
      /* webpackIgnore: true */ /* turbopackIgnore: true */ 'tesseract.js-core/tesseract-core-relaxedsimd.wasm',
    ),
    require.resolve(
      /* webpackIgnore: true */ /* turbopackIgnore: true */ 'tesseract.js-core/tesseract-core-relaxedsimd-lstm.wasm',
    ),
  ];
  return { model, code };
}

/**
 * `@tesseract.js-data/eng`'s manifest, or the typed error of an install without it (a dependency of this package, so
 * removed by hand, or left out of a deployment): Node's "Cannot find module … Require stack" says neither that it is
 * OCR's language data nor how to get it.
 */
function resolveOcrData(): string {
  try {
    return require.resolve('@tesseract.js-data/eng/package.json');
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new DocumentError(
      'SCRAPE_OCR_DATA_MISSING',
      'OCR needs its English language data, the @tesseract.js-data/eng package, which is not installed beside ' +
        `@crawlkit/documents: ${OCR_DATA_INSTALL}`,
      { cause: error },
    );
  }
}

async function start(): Promise<Recognizer> {
  const { model } = tesseractFiles();
  const { createWorker, OEM } = await import('tesseract.js');
  return await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: dirname(model),
    gzip: true,
    cacheMethod: 'none',
    // tesseract.js reports worker errors here; the recognize call rejects with them as well
    errorHandler: () => undefined,
  });
}

/** Starts this thread's recognizer, once. */
function starting(): Promise<Recognizer> {
  if (current) return current;
  const started = start();
  current = started;
  started.then(
    () => {
      if (current === started) ready = started;
    },
    () => undefined,
  );
  return started;
}

async function stop(): Promise<void> {
  const recognizer = current;
  current = undefined;
  ready = undefined;
  clearTimeout(idle);
  await (await recognizer?.catch(() => undefined))?.terminate().catch(() => undefined);
}

/**
 * Why the recognizer failed, in a sentence. tesseract.js rejects with a string when its decoder refuses the image
 * ("Error: Error attempting to read image."), where `.message` was undefined.
 */
function ocrFailure(error: unknown): string {
  if (typeof error !== 'string') return error instanceof Error ? error.message : String(error);
  const reason = error.replace(/^Error:\s*/, '');
  return /read image/i.test(reason)
    ? `its decoder refused it (${reason}): the file is damaged, or not the image type it is served as.`
    : reason;
}

/** The text of one image (PNG, JPEG, TIFF, WebP, BMP), or `undefined` when `deadline` passed first. */
export function recognize(image: Uint8Array, deadline?: number): Promise<Recognized | undefined> {
  const run = turn.then(() => read(image, deadline));
  turn = run.catch(() => undefined);
  return run;
}

const linesOf = (page: Page): OcrLine[] =>
  (page.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.map((line) => ({
        text: line.text,
        left: line.bbox.x0,
        right: line.bbox.x1,
        baseline: (line.baseline.y0 + line.baseline.y1) / 2,
        height: line.rowAttributes.rowHeight || line.bbox.y1 - line.bbox.y0,
      })),
    ),
  );

async function read(image: Uint8Array, deadline?: number): Promise<Recognized | undefined> {
  clearTimeout(idle);
  const left = () => (deadline !== undefined ? deadline - Date.now() : Infinity);
  if (left() <= 0) return undefined;
  try {
    // The start (~0.4 s on a free core, seconds on a busy one) counts against the deadline. One cut short goes on,
    // for the next image: nothing runs in the recognizer yet.
    const recognizer = await withinBudget(starting(), left(), () => undefined);
    // Started just in time: no recognition is begun with no time for it (its cut would stop the recognizer).
    if (recognizer === undefined || left() <= 0) return undefined;
    const page = recognizer.recognize(
      Buffer.from(image.buffer, image.byteOffset, image.byteLength),
      {},
      { text: true, blocks: true },
    );
    const result = await withinBudget(page, left(), () => undefined);
    if (result === undefined) {
      page.catch(() => undefined);
      await stop();
      return undefined;
    }
    return { text: result.data.text, lines: linesOf(result.data) };
  } catch (error) {
    await stop();
    if (isDocumentError(error)) throw error;
    throw new DocumentError('SCRAPE_OCR_FAILED', `The image could not be read by OCR: ${ocrFailure(error)}`, {
      cause: error,
    });
  } finally {
    if (current !== undefined) idle = setTimeout(() => void stop(), IDLE_MS).unref();
  }
}

/** Where this thread's recognizer is (read-only): none, starting, or started. */
export function ocrRecognizer(): 'none' | 'starting' | 'started' {
  return current === undefined ? 'none' : ready === current ? 'started' : 'starting';
}

/** Stops this thread's recognizer now (tests, and a process that is done). */
export function stopOcr(): Promise<void> {
  return stop();
}
