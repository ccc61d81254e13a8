/**
 * pdf.js with the budgets of `extract-pdf.ts`. pdf.js has no size limit of its own, so this package ships pdf.js's
 * worker side (where every stream is decoded and every token of the file is lexed) patched to charge a per-document
 * budget: `vendor/pdfjs-dist/pdf.worker.mjs`, built by `pnpm vendor:pdfjs` from the pdfjs-dist that pdf-parse pins
 * and `vendor/pdfjs-dist/pdf.worker.patch`. In Node, pdf.js runs its worker side in the calling thread and takes it
 * from `globalThis.pdfjsWorker` when set there: that is how the shipped copy replaces the installed one, in every
 * install (a patch applied by the workspace's package manager would not travel to npm users).
 */
import { createRequire } from 'node:module';

import type * as PdfParseModule from 'pdf-parse';

const require = createRequire(import.meta.url);
const WORKER = new URL('../../vendor/pdfjs-dist/pdf.worker.mjs', import.meta.url).href;

interface PdfjsWorkerModule {
  WorkerMessageHandler: unknown;
}

type PdfParse = typeof PdfParseModule;

const slot = globalThis as { pdfjsWorker?: PdfjsWorkerModule };
let loading: Promise<PdfParse> | undefined;

/** pdf-parse, with the patched pdf.js worker side installed first (loaded once per thread, with the first PDF). */
export function loadPdfParse(): Promise<PdfParse> {
  loading ??= (async () => {
    // pdf.js takes DOMMatrix, Path2D and the canvas it renders pages on from @napi-rs/canvas, loaded by a require of
    // its own that a file tracer (Next's standalone output, @vercel/nft) does not read, so a traced deployment lacked
    // it ("DOMMatrix is not defined"). Required here (the version pdf-parse pins), it is traced, and is the module
    // pdf.js then gets. A platform without its binary gets pdf.js's own warning and error, as before.
    try {
      require('@napi-rs/canvas');
    } catch {
      // pdf.js says so itself
    }
    slot.pdfjsWorker = (await import(WORKER)) as PdfjsWorkerModule;
    return import('pdf-parse');
  })();
  return loading;
}
