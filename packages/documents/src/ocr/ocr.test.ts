/** OCR: images, scanned PDF pages (auto and ocr modes), the page cap and the deadline, and no network at all. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

import type { OcrPageRead, PdfHead, PdfLine, PdfRead } from '@crawlkit/extractor';
import { afterAll, describe, expect, it } from 'vitest';

import { convertDocument } from '../convert.js';
import {
  makeProsePdf,
  makeScannedPdf,
  PROSE,
  renderPage,
  SCREENSHOT_WORDS,
  screenshotPng,
} from '../__fixtures__/writers.js';
import { OCR_DATA_RANGE, ocrRecognizer, recognize, stopOcr } from './engine.js';
import { cutOcrPdf, cutPdfRead, ocrPdf } from './pdf.js';

const run = promisify(execFile);

afterAll(() => stopOcr());

describe('OCR', () => {
  it("names the language data's range of this package's manifest in its install command", () => {
    // the packed-install test reads OCR without the data (scripts/packed/ocr-data-steps.ts)
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies['@tesseract.js-data/eng']).toBe(OCR_DATA_RANGE);
  });

  it('reads a screenshot only when images are asked for', async () => {
    await expect(convertDocument({ bytes: screenshotPng(), contentType: 'image/png' })).rejects.toMatchObject({
      code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
      message: /image parser/,
    });
    const read = await convertDocument({ bytes: screenshotPng(), contentType: '' }, { images: true });
    for (const words of SCREENSHOT_WORDS) expect(read.markdown).toContain(words);
    expect(read).toMatchObject({ format: 'image', pages: 1 });
  });

  it('reads JPEG, TIFF and WebP as it reads PNG', async () => {
    for (const name of ['screenshot.jpg', 'screenshot.tif', 'screenshot.webp']) {
      const bytes = new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url)));
      const read = await convertDocument({ bytes, contentType: 'application/octet-stream' }, { images: true });
      expect(read.format).toBe('image');
      for (const words of SCREENSHOT_WORDS) expect(read.markdown, name).toContain(words);
    }
  });

  it("says why an image its decoder refuses could not be read, where it said 'undefined'", async () => {
    const png = screenshotPng();
    // the signature and the header kept, the image data damaged: detected as a PNG, refused by the decoder
    const damaged = new Uint8Array(png);
    damaged.fill(0x55, 60, damaged.length - 12);
    const failure = convertDocument({ bytes: damaged, contentType: 'image/png' }, { images: true });
    await expect(failure).rejects.toMatchObject({ code: 'SCRAPE_OCR_FAILED' });
    const { message } = (await failure.catch((error: unknown) => error)) as Error;
    expect(message).not.toMatch(/undefined|\[object/);
    expect(message).toMatch(/The image could not be read by OCR: .*(damaged|decode)/);
  });

  it('refuses a cut or damaged PNG before its decoder sees it, keeping the recognizer for the next image', async () => {
    const png = screenshotPng();
    await convertDocument({ bytes: png, contentType: 'image/png' }, { images: true });
    expect(ocrRecognizer()).toBe('started');
    const header = new Uint8Array(png);
    header[20] = header[20]! ^ 0xff; // the width: IHDR's checksum no longer matches (libpng: "IHDR: CRC error" on stderr)
    const data = new Uint8Array(png);
    data.fill(0x55, 60, data.length - 12);
    for (const [bytes, why] of [
      [
        png.subarray(0, png.length / 2),
        /the PNG is damaged \(the file ends inside its IDAT chunk \(a cut download\?\)\)/,
      ],
      [header, /the PNG is damaged \(its IHDR chunk's checksum does not match its content\)/],
      [data, /the PNG is damaged \(its IDAT chunk's checksum does not match its content\)/],
    ] as const) {
      const failure = await convertDocument({ bytes, contentType: 'image/png' }, { images: true }).catch((e) => e);
      expect(failure).toMatchObject({ code: 'SCRAPE_OCR_FAILED', message: expect.stringMatching(why) });
      // the decoder never saw it: a refused image stopped the recognizer, and the next image waited for a new one
      expect(ocrRecognizer()).toBe('started');
    }
  });

  it('refuses a cut JPEG, WebP or TIFF before its decoder sees it (which printed its complaint on stderr)', async () => {
    for (const [name, type] of [
      ['screenshot.jpg', 'JPEG'],
      ['screenshot.webp', 'WebP'],
      ['screenshot.tif', 'TIFF'],
    ] as const) {
      const whole = new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url)));
      const bytes = whole.subarray(0, whole.length / 2);
      const failure = await convertDocument({ bytes, contentType: 'image/*' }, { images: true }).catch((e) => e);
      expect(failure, name).toMatchObject({
        code: 'SCRAPE_OCR_FAILED',
        message: expect.stringContaining(`The image could not be read by OCR: the ${type} is damaged (`),
      });
      // Before: "Premature end of JPEG file", "Error in pixReadMemWebP", "Error in findTiffCompression" on stderr,
      // and the recognizer stopped.
      expect(ocrRecognizer(), name).toBe('started');
    }
  });

  it('reads the page without a text layer in auto mode, every page in ocr mode', async () => {
    const pdf = await makeScannedPdf();
    const auto = await ocrPdf(pdf, { mode: 'auto' });
    expect(auto.ocrPages).toBe(1);
    for (const words of SCREENSHOT_WORDS) expect(auto.markdown).toContain(words);
    expect(auto.pageMarkdown[1]).toBe('Text layer page two');
    const all = await ocrPdf(pdf, { mode: 'ocr' });
    expect(all.ocrPages).toBe(2);
    expect(all.pageMarkdown[1]).toMatch(/Text layer page two/i);
  });

  it('joins the lines of an image of prose into its paragraphs', async () => {
    const image = await renderPage(await makeProsePdf(), 1);
    const read = await convertDocument({ bytes: image, contentType: 'image/png' }, { images: true });
    const paragraphs = read.markdown.split('\n\n');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]).toMatch(/^The installer copies .* each time it starts\.$/);
    expect(paragraphs[1]).toMatch(/^A second paragraph begins .* ends in the middle of a sentence and the$/);
    for (const paragraph of paragraphs) expect(paragraph).not.toContain('\n');
  });

  it('joins a scanned paragraph that runs on to the next page', async () => {
    const read = await ocrPdf(await makeProsePdf(), { mode: 'ocr' });
    expect(read.ocrPages).toBe(2);
    const paragraphs = read.markdown.split('\n\n');
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[1]).toMatch(
      /sentence and the rest of the sentence opens the second page, where the paragraph ends\.$/,
    );
    expect(paragraphs[0]).toBe(PROSE[0]);
  });

  it('keeps to its page cap and its deadline, and says so', async () => {
    const pdf = await makeScannedPdf();
    const capped = await ocrPdf(pdf, { mode: 'ocr', maxOcrPages: 1 });
    expect(capped.ocrPages).toBe(1);
    expect(capped.warnings.join(' ')).toMatch(
      /Only 1 of the 2 PDF pages to read by OCR were read \(the OCR page cap\)/,
    );
    // past its deadline, the text pass stops after the first page, and OCR reads none
    const late = await ocrPdf(pdf, { mode: 'auto', deadline: Date.now() - 1 });
    expect(late.ocrPages).toBe(0);
    expect(late.markdown).toBe('');
    expect(late.warnings.join(' ')).toMatch(/Only 0 of 1 PDF pages were read by OCR before the time ran out/);
  });

  it('counts the start of its recognizer against the deadline, and keeps the start for the next image', async () => {
    await stopOcr();
    // A deadline the start (a model and a WebAssembly build to load, ~0.4 s) cannot meet: before, the read waited for
    // the whole start, only then gave up on the time left, and stopped the recognizer it had just started.
    // 100 ms, not 1: a fresh-clone CI pair reached the read's first check past a 1 ms deadline, so nothing started.
    expect(await recognize(screenshotPng(), Date.now() + 100)).toBeUndefined();
    expect(ocrRecognizer()).toBe('starting');
    const read = await recognize(screenshotPng());
    for (const words of SCREENSHOT_WORDS) expect(read!.text).toContain(words);
    expect(ocrRecognizer()).toBe('started');
  });

  it('tells what it reads as it reads it, from which a thread stopped in its OCR has the pages read composed', async () => {
    const told: PdfRead[] = [];
    const full = await ocrPdf(await makeScannedPdf(), { mode: 'ocr', onRead: (read) => void told.push(read) });
    expect(told.map((read) => Object.keys(read)[0])).toEqual([
      'head',
      'page',
      'page',
      'done',
      'ocr',
      'ocrPage',
      'ocrPage',
    ]);
    const head = told.flatMap((read) => ('head' in read ? [read.head] : []))[0] as PdfHead;
    const pages = told.flatMap<PdfLine[]>((read) => ('page' in read ? [read.page] : []));
    const ocr = told.flatMap((read) => ('ocr' in read ? [read.ocr] : []))[0]!;
    const read = told.flatMap<OcrPageRead>((read) => ('ocrPage' in read ? [read.ocrPage] : []));
    // all of it told: the parse's own content
    expect(cutOcrPdf(head, pages, ocr, read).markdown).toBe(full.markdown);
    // stopped while the second page was read by OCR: the first as OCR read it, the second's text layer, the warning
    const cut = cutOcrPdf(head, pages, ocr, read.slice(0, 1));
    for (const words of SCREENSHOT_WORDS) expect(cut.markdown).toContain(words);
    expect(cut.pageMarkdown[1]).toBe('Text layer page two');
    expect(cut.warnings).toEqual(['Only 1 of 2 PDF pages were read by OCR before the time ran out.']);
    expect(cut).toMatchObject({ numPages: 2, ocrPages: 1, timedOut: true });
    // stopped after its text pass, before OCR began (composing the pages): every page's text layer, and the pages the
    // mode reads by OCR said unread for the time, not dropped in silence
    const done = told.flatMap((read) => ('done' in read ? [read.done] : []))[0]!;
    expect(done).toEqual({ warnings: [], timedOut: false });
    for (const [mode, unread] of [
      ['ocr', 2],
      ['auto', 1],
    ] as const) {
      const stopped = cutPdfRead({ head, pages, done }, mode);
      expect(stopped.pageMarkdown[1]).toBe('Text layer page two');
      expect(stopped.warnings).toEqual([`Only 0 of ${unread} PDF pages were read by OCR before the time ran out.`]);
      expect(stopped).toMatchObject({ numPages: 2, ocrPages: 0, timedOut: true });
    }
    expect(cutPdfRead({ head, pages, done }, 'fast')).toMatchObject({
      numPages: 2,
      warnings: [],
      markdown: 'Text layer page two',
    });
    expect(cutPdfRead({ head, pages, done }, 'fast').timedOut).toBeUndefined();
  });

  it('attempts no network access: the model comes from the npm package', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-ocr-net-'));
    try {
      const log = join(dir, 'network.log');
      const hooks = fileURLToPath(new URL('../../../../test/helpers/source-hooks.ts', import.meta.url));
      const trap = fileURLToPath(new URL('../__fixtures__/network-trap.ts', import.meta.url));
      const child = fileURLToPath(new URL('../__fixtures__/ocr-offline.ts', import.meta.url));
      const { stdout } = await run(process.execPath, ['--import', hooks, '--import', trap, child], {
        env: { ...process.env, NETWORK_TRAP_LOG: log },
      });
      for (const words of SCREENSHOT_WORDS) expect(JSON.parse(stdout).markdown).toContain(words);
      // the two deliberate fetches, from the main thread and a worker thread: the trap is in every thread
      const attempts = readFileSync(log, 'utf8').trim().split('\n');
      expect(attempts).toHaveLength(2);
      expect(attempts[0]).toMatch(/^thread 0: fetch http:\/\/127.0.0.1:9\/main$/);
      expect(attempts[1]).toMatch(/^thread \d+: fetch http:\/\/127.0.0.1:9\/worker$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
