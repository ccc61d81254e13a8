/**
 * `POST /v2/parse` as a function: a file given as bytes (an upload) becomes a v2 document, as a scrape of a URL
 * serving it would: PDF, Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV, TSV, HTML, text, JSON, XML, and
 * images read by OCR. The extraction runs in the engine's worker pool under the request's `timeout`.
 */
import { isUtf8 } from 'node:buffer';

import { DOCUMENT_TYPES, detectFormat, imageType } from '@crawlkit/documents/detect';
import { sizeText } from '@crawlkit/options/size-text';
import { z } from 'zod';

import { CrawlkitError } from '../errors.js';
import { startsWithPdfMagic } from '../extraction/page-kind.js';
import type { Runtime } from '../runtime.js';
import type { FetchedPage } from '../scrape/fetched-page.js';
import { runScrape } from '../scrape/run-scrape.js';
import type { ScrapeStage } from '../scrape/scrape-state.js';
import { decodeStage } from '../scrape/stages/decode.js';
import { extractStage } from '../scrape/stages/extract.js';
import { formatsStage } from '../scrape/stages/formats.js';
import type { PageScrapeRequest } from '../scrape/types.js';
import { parseBody } from '../v2/parse.js';
import {
  integrationSchema,
  refineScrapeOptions,
  scrapeOptionsShape,
  type ScrapeOptionsInput,
} from '../v2/scrape-options.js';
import type { ErrorResponse, ScrapeResponse } from '../v2/types.js';
import { charged } from '../credits/charge.js';
import { pageCreditEstimate } from '../credits/estimate.js';

/** A file to parse: its bytes, its name, and the type it was uploaded with. */
export interface ParseFile {
  /** The file's content: bytes, a Blob, or text (encoded as UTF-8). */
  data: Uint8Array | ArrayBuffer | Blob | string;
  /** The file's name: the document's `sourceURL`, and a hint for text formats without a type (`.csv`, `.html`). */
  filename: string;
  /** The MIME type it was uploaded with; the bytes' signature decides for binary formats whatever it says. */
  contentType?: string;
}

/** The scrape options a parse takes (reference: the SDK's `ParseOptions`), as the v2 API takes them. */
export type ParseOptionsInput = Omit<
  ScrapeOptionsInput,
  'waitFor' | 'mobile' | 'actions' | 'location' | 'maxAge' | 'minAge' | 'storeInCache' | 'lockdown'
> & {
  origin?: string;
  integration?: string | null;
  zeroDataRetention?: boolean;
  /** Taken for firecrawl-mcp's parse tool, which offers it, and ignored: a parse is never cached. */
  maxAge?: number;
  /** Taken for firecrawl-mcp's parse tool, which offers it, and ignored: a parse is never stored in the cache. */
  storeInCache?: boolean;
};

// maxAge and storeInCache stay, checked as a scrape's and then set to what caches nothing (firecrawl-mcp sends them).
const {
  waitFor: _waitFor,
  mobile: _mobile,
  actions: _actions,
  location: _location,
  minAge: _minAge,
  lockdown: _lockdown,
  ...parseShape
} = scrapeOptionsShape;

/** Formats that need a rendered page or a history: a file has neither. */
const UNSUPPORTED_FORMATS = new Set(['screenshot', 'changeTracking', 'branding']);

const parseOptionsSchema = z
  .strictObject({
    ...parseShape,
    origin: z.string().default('api'),
    integration: integrationSchema,
    zeroDataRetention: z.boolean().default(false),
  })
  .superRefine((o, ctx) => {
    refineScrapeOptions({ ...o, waitFor: 0 }, ctx);
    for (const format of o.formats) {
      if (UNSUPPORTED_FORMATS.has(format.type)) {
        ctx.addIssue({
          code: 'custom',
          message: `parse does not support the ${format.type} format`,
          path: ['formats'],
        });
      }
    }
  });

/** Types given to text files uploaded without a useful one, by name (the bytes are checked to be text). */
const TEXT_TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  xml: 'application/xml',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
};
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'text/plain']);
const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml)$)|\+(xml|json)$/;

async function bytesOf(data: ParseFile['data']): Promise<Uint8Array> {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (typeof Blob !== 'undefined' && data instanceof Blob) return new Uint8Array(await data.arrayBuffer());
  if (ArrayBuffer.isView(data)) {
    const view = data as ArrayBufferView;
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }
  throw new CrawlkitError('BAD_REQUEST', '`file.data` must be bytes (Uint8Array, ArrayBuffer, Blob) or a string.');
}

/**
 * The type the file is read as: its own, else one named by its extension for text formats, else its documents'
 * signature, else `text/plain` for UTF-8 text of any other name (source code, configuration, no extension).
 */
function typeOf(file: ParseFile, bytes: Uint8Array): string {
  const declared = (file.contentType ?? (file.data instanceof Blob ? file.data.type : '') ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (!GENERIC_TYPES.has(declared)) return declared;
  const extension = /\.([a-z]+)$/i.exec(file.filename)?.[1]?.toLowerCase();
  const named = extension !== undefined ? TEXT_TYPES[extension] : undefined;
  const text = !bytes.subarray(0, 4096).includes(0);
  if (named !== undefined && text) return named;
  return signatureType(bytes, declared, file.filename) ?? (text && isUtf8(bytes) ? 'text/plain' : declared);
}

/** The type of each document format, the first of `DOCUMENT_TYPES` that names it. */
const FORMAT_TYPES: Partial<Record<string, string>> = Object.fromEntries(
  Object.entries(DOCUMENT_TYPES)
    .map(([type, format]): [string, string] => [format, type])
    .reverse(),
);

/** The type of a PDF or a document told by its bytes (the document's `contentType`, which read "" before). */
function signatureType(bytes: Uint8Array, declared: string, fileName: string): string | undefined {
  if (startsWithPdfMagic(bytes)) return 'application/pdf';
  const format = detectFormat({ bytes, contentType: declared, fileName });
  if (format === 'image') return imageType(bytes);
  return format !== undefined ? FORMAT_TYPES[format] : undefined;
}

/** How a file is given, for the messages of `validFile`. */
const FILE_SHAPE = "{ data, filename, contentType? } (e.g. { data: await readFile(path), filename: 'report.docx' })";

function validFile(file: unknown): ParseFile {
  if (typeof file === 'string') {
    throw new CrawlkitError('BAD_REQUEST', `parse takes the file's content, not a path or text alone: ${FILE_SHAPE}.`);
  }
  if (
    file instanceof Uint8Array ||
    file instanceof ArrayBuffer ||
    (typeof Blob !== 'undefined' && file instanceof Blob)
  ) {
    // the bytes alone were answered "`file.filename` must be a non-empty string", naming no `data`
    throw new CrawlkitError(
      'BAD_REQUEST',
      `parse takes the bytes with their name, not the bytes alone: ${FILE_SHAPE}.`,
    );
  }
  if (file === null || typeof file !== 'object') {
    throw new CrawlkitError('BAD_REQUEST', `parse needs a file: ${FILE_SHAPE}.`);
  }
  const { filename, data } = file as Partial<ParseFile>;
  if (typeof filename !== 'string' || filename.trim() === '') {
    throw new CrawlkitError('BAD_REQUEST', '`file.filename` must be a non-empty string.');
  }
  if (data === undefined || data === null) throw new CrawlkitError('BAD_REQUEST', '`file.data` is missing.');
  return file as ParseFile;
}

/** The page of an upload, in place of a fetched one: text for textual types, bytes otherwise. */
function uploadedPage(name: string, contentType: string, bytes: Uint8Array): FetchedPage {
  const page: FetchedPage = {
    // a base for the relative links of an HTML upload, and the document's `url`
    url: `file:///${encodeURIComponent(name)}`,
    status: 200,
    contentType,
    headers: { 'content-type': contentType },
    engine: 'http',
    proxyUsed: 'basic',
  };
  if (TEXTUAL.test(contentType) && !bytes.subarray(0, 4096).includes(0)) page.text = new TextDecoder().decode(bytes);
  else page.body = bytes;
  return page;
}

/**
 * The answer to a file past the engine's `parseFileLimit`, given before any work (as `POST /v2/parse`'s 413); the
 * command line gives it from the file's size, before reading it.
 */
export function parseFileTooLarge(size: number, limit: number): CrawlkitError {
  return new CrawlkitError(
    'PAYLOAD_TOO_LARGE',
    `The file is ${sizeText(size)}, larger than the parse limit of ${sizeText(limit)}: ` +
      'raise the engine option `parseFileLimit`, or split the file.',
  );
}

/** Parses a file into a v2 document. Bad input and failures come back in the v2 error shape. */
export async function parseFile(
  ready: () => Promise<Runtime>,
  fileInput: ParseFile,
  options: ParseOptionsInput,
  signal: AbortSignal | undefined,
  call: { creditLimit?: number | undefined; tenant?: string | undefined; fileLimit: number },
): Promise<ScrapeResponse | ErrorResponse> {
  const file = validFile(fileInput);
  const parsed = parseBody(parseOptionsSchema, options ?? {});
  if (!parsed.ok) return parsed.error;
  const bytes = await bytesOf(file.data);
  if (bytes.length === 0) throw new CrawlkitError('BAD_REQUEST', 'The file is empty.');
  if (bytes.length > call.fileLimit) throw parseFileTooLarge(bytes.length, call.fileLimit);
  const values = parsed.value;
  // a parse is asked for this file: images are read by OCR unless the parsers were given without `image`
  const given = (options as { parsers?: unknown } | undefined)?.parsers !== undefined;
  const parsers = given ? values.parsers : [...values.parsers, { type: 'image' as const }];
  const name = file.filename.trim();
  const page = uploadedPage(name, typeOf(file, bytes), bytes);
  // the scrape options a parse does not take, at the values that change nothing (no page cache, no browser)
  const request = {
    ...values,
    parsers,
    waitFor: 0,
    mobile: false,
    maxAge: 0,
    storeInCache: false,
    lockdown: false,
    url: page.url,
  } as PageScrapeRequest;
  const uploadStage: ScrapeStage = {
    name: 'upload',
    run(state) {
      state.page = page;
    },
  };
  const { ctx, queue, bus } = await ready();
  // Under a credit limit, reserved before the work as a scrape's (issue 38).
  const outcome = await charged(
    ctx.store,
    call,
    // An uploaded file goes through no proxy: never a stealth page.
    pageCreditEstimate({ formats: request.formats, zeroDataRetention: values.zeroDataRetention }, ctx.fetcher),
    () =>
      queue.add(
        () =>
          runScrape(
            ctx,
            request,
            { sourceURL: name, zeroDataRetention: values.zeroDataRetention, ...(signal ? { signal } : {}) },
            [uploadStage, decodeStage, extractStage, formatsStage],
          ),
        { ...(signal ? { signal } : {}), tenant: call.tenant },
      ),
    (done) => (done && 'success' in done && done.success ? done.credits : 0),
    bus.warning,
  );
  if ('kind' in outcome) throw new CrawlkitError('UNKNOWN_ERROR', `A parse ended ${outcome.kind}.`);
  if (!outcome.success) {
    bus.pageFailed(undefined, name, outcome.error, call.tenant);
    return outcome.error;
  }
  bus.page(undefined, outcome.document, call.tenant);
  return { success: true, data: outcome.document };
}
