/**
 * officeparser, the one reader of the zip and RTF formats (Word, Excel, PowerPoint, OpenDocument, RTF, EPUB): its
 * parse into a tree of nodes under this package's limits, and that tree's markdown and HTML.
 */
import { lazyModule } from '@crawlkit/options/lazy-module';
import type { OfficeContentNode, OfficeParserAST } from 'officeparser';

import { DocumentError, deadlineError, isDocumentError } from './errors.js';
import { DEFAULT_LIMITS } from './limits.js';
import type { ConvertOptions, DocumentMetadata } from './types.js';
import { statedMetadata } from './stated-metadata.js';
import { guardZip } from './zip/guard.js';
import { NO_PARTS, type PartNames, type PartTexts } from './zip/parts.js';

/**
 * officeparser (about 130 modules with its readers): loaded with the first office document. An optional peer
 * dependency: it pins a pdf.js of its own (70 MB with its canvas) for a PDF path crawlkit never calls, so an
 * install without office documents leaves it out, and the first one says what to install.
 */
const officeparser = lazyModule(async () => {
  try {
    return await import('officeparser');
  } catch (error) {
    if (isMissing(error, 'officeparser')) {
      throw new DocumentError(
        'SCRAPE_DOCUMENT_READER_MISSING',
        `Reading Word, Excel, PowerPoint, OpenDocument, RTF and EPUB documents needs the officeparser package, an ` +
          `optional dependency of crawlkit: npm install officeparser@${OFFICEPARSER_RANGE}`,
        { cause: error },
      );
    }
    if (!isUnloadable(error, 'officeparser')) throw error;
    // the stumble: `npm install officeparser`, as the message above says, under a running `serve` or `mcp`
    throw new DocumentError(
      'SCRAPE_DOCUMENT_READER_MISSING',
      'officeparser is in node_modules but this process cannot load it. Installed after the process started? Node ' +
        'keeps a package it once found missing until the process ends: restart it. If a new process cannot load it ' +
        `either, install it again: npm install officeparser@${OFFICEPARSER_RANGE}`,
      { cause: error },
    );
  }
});

/** The officeparser versions this package reads (its `peerDependencies` entry). */
export const OFFICEPARSER_RANGE = '^8.1.1';

/** True when `error` is the failed import of the package `name` itself (not of a module inside it). */
export function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${name}'`)
  );
}

/**
 * True when `error` is the import of the package `name` failing on a file inside its folder: Node looked for the
 * package before it was installed (it remembers the package.json it did not find, for the process's life, and then
 * looks for an `index.js`), or the install is incomplete.
 */
export function isUnloadable(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`/node_modules/${name}/`);
}

export type OfficeType = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp' | 'rtf' | 'epub';

/** officeparser's error codes that mean a cap was reached. */
const CAP_ERRORS = new Set(['ZIP_ENTRY_COUNT_LIMIT_EXCEEDED', 'ZIP_SIZE_LIMIT_EXCEEDED', 'XML_ELEMENT_LIMIT_EXCEEDED']);

export interface ParsedOffice {
  ast: OfficeParserAST;
  warnings: string[];
  /** The parts the converter asked for (`ReadParts.parts`), as text, read in the zip guard's pass. */
  parts: PartTexts;
}

/** The parts of the archive a converter reads itself, beside officeparser's tree (`zip/parts.ts`). */
export interface ReadParts {
  /** The parts to keep as text while the zip guard inflates the archive. @default none */
  parts?: PartNames;
  /** The parts a guard the caller ran already kept (`guardOffice`): the guard is not run again. */
  guarded?: PartTexts;
}

/** Where a spreadsheet's cells are, and the tag each starts with. */
const CELLS: Partial<Record<OfficeType, { part: RegExp; tag: string }>> = {
  xlsx: { part: /^xl\/worksheets\/[^/]+\.xml$/, tag: '<c ' },
  ods: { part: /^content\.xml$/, tag: '<table:table-cell' },
};

/**
 * The zip guard (`guardZip`) under the options' limits, with the cells of a spreadsheet counted; answers the parts
 * `keep` names as text.
 */
export function guardOffice(
  bytes: Uint8Array,
  type: OfficeType,
  options: ConvertOptions,
  keep: PartNames = NO_PARTS,
): Promise<PartTexts> {
  const cells = CELLS[type];
  const limits = {
    maxEntries: options.maxZipEntries ?? DEFAULT_LIMITS.maxZipEntries,
    maxExpandedBytes: options.maxExpandedBytes ?? DEFAULT_LIMITS.maxExpandedBytes,
    maxRatio: options.maxExpansionRatio ?? DEFAULT_LIMITS.maxExpansionRatio,
    ...(cells ? { cells: { ...cells, max: options.maxSheetCells ?? DEFAULT_LIMITS.maxSheetCells } } : {}),
  };
  return guardZip(bytes, limits, keep);
}

/**
 * Parses a document with officeparser, after the zip guard for zip-based types (unless `read.guarded`: the caller
 * ran it), which keeps the parts `read.parts` names.
 */
export async function parseOffice(
  bytes: Uint8Array,
  type: OfficeType,
  options: ConvertOptions,
  read: ReadParts = {},
): Promise<ParsedOffice> {
  let parts: PartTexts = read.guarded ?? {};
  if (type !== 'rtf' && !read.guarded) parts = await guardOffice(bytes, type, options, read.parts);
  const warnings: string[] = [];
  if (options.deadline !== undefined && Date.now() >= options.deadline) throw deadlineError(describe(type));
  try {
    const { OfficeParser } = await officeparser();
    const ast = await OfficeParser.parseOffice(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      fileType: type,
      ocr: false,
      extractAttachments: true,
      includeRawContent: false,
      // a DOCX's, an ODT's and an RTF's review comments are kept (`formats/docx-comments.ts`); others' are not read
      ignoreComments: type !== 'docx' && type !== 'odt' && type !== 'rtf',
      ignoreSlideMasters: true,
      abortSignal: deadlineSignal(options.deadline),
      decompressionLimits: {
        maxZipEntries: options.maxZipEntries ?? DEFAULT_LIMITS.maxZipEntries,
        maxUncompressedBytes: options.maxExpandedBytes ?? DEFAULT_LIMITS.maxExpandedBytes,
        maxXmlElements: options.maxXmlElements ?? DEFAULT_LIMITS.maxXmlElements,
        maxTableCells: options.maxTableCells ?? DEFAULT_LIMITS.maxTableCells,
      },
      onWarning: (issue) => {
        // caps reached: what was left out (the errors among the issues are thrown as well)
        if (issue.type === 'warning' && /LIMIT/.test(String((issue as { code?: unknown }).code))) {
          warnings.push(issue.message);
        }
      },
    });
    return { ast, warnings, parts };
  } catch (error) {
    throw officeError(error, type);
  }
}

/** What a timeout's message calls a document of the type ("DOCX document"). */
const describe = (type: OfficeType): string => `${type.toUpperCase()} document`;

/**
 * A signal for officeparser that is aborted once `deadline` has passed. officeparser's readers and generators check
 * `signal.aborted` between blocks, in synchronous loops where a timer (`AbortSignal.timeout`) cannot fire until they
 * end: a Word file of 30,000 paragraphs ran 2.4 s past a deadline of 0.3 s and was returned whole. Its `aborted` reads
 * the clock; the timer underneath still aborts what waits on the signal's event.
 */
export function deadlineSignal(deadline: number | undefined): AbortSignal | null {
  if (deadline === undefined) return null;
  const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
  Object.defineProperty(signal, 'aborted', { get: () => Date.now() >= deadline });
  return signal;
}

const isAbort = (error: unknown): boolean => {
  const name = (error as { name?: string } | undefined)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
};

function officeError(error: unknown, type: OfficeType): DocumentError {
  if (isDocumentError(error)) return error;
  const e = error as { name?: string; message?: string; officeIssue?: { code?: string; message?: string } };
  if (isAbort(error)) return deadlineError(describe(type));
  const code = e?.officeIssue?.code;
  const message = e?.officeIssue?.message ?? e?.message ?? String(error);
  if (code !== undefined && CAP_ERRORS.has(code)) {
    return new DocumentError('SCRAPE_DOCUMENT_TOO_LARGE', `The document is past a size limit: ${message}`, {
      cause: error,
    });
  }
  return new DocumentError(
    'SCRAPE_DOCUMENT_PARSE_ERROR',
    `The ${type.toUpperCase()} document could not be read (${message}): it may be damaged or cut short.`,
    {
      cause: error,
    },
  );
}

/** Which of a document's nodes to write, and until when. */
export interface GenerateOptions {
  /** The nodes to write. @default the whole document */
  content?: OfficeContentNode[];
  /** Epoch ms past which writing stops with `SCRAPE_DOCUMENT_TIMEOUT`. */
  deadline?: number;
}

/** officeparser's generator, stopped at the deadline (a timeout naming the document's type). */
async function generate(
  ast: OfficeParserAST,
  type: OfficeType,
  format: 'md' | 'html',
  config: object,
  deadline: number | undefined,
): Promise<string> {
  const { OfficeGenerator } = await officeparser();
  try {
    const result = await OfficeGenerator.generate(ast, format, { ...config, abortSignal: deadlineSignal(deadline) });
    return String(result.value);
  } catch (error) {
    throw isAbort(error) ? deadlineError(describe(type)) : error;
  }
}

/** Markdown of some of a document's nodes (all by default): GitHub's dialect, no HTML, no front matter. */
export async function officeMarkdown(
  ast: OfficeParserAST,
  type: OfficeType,
  { content = ast.content, deadline }: GenerateOptions = {},
): Promise<string> {
  const config = {
    generateIds: false,
    mdConfig: { dialect: { extends: 'github', attributeLists: 'none' }, fallbackToHtml: false },
  };
  return (await generate({ ...ast, metadata: {}, content }, type, 'md', config, deadline)).trim();
}

/**
 * A heading of text the file names (a sheet's name), escaped as the body's text is: `*Q1* [draft] # 2` stays those
 * characters, not emphasis, a link or a closing `#`.
 */
export function headingMarkdown(ast: OfficeParserAST, type: OfficeType, text: string, level = 2): Promise<string> {
  return officeMarkdown(ast, type, {
    content: [{ type: 'heading', metadata: { level }, children: [{ type: 'text', text }] }],
  });
}

/** HTML of the whole document, as a fragment (no page envelope, styles or scripts). */
export function officeHtml(ast: OfficeParserAST, type: OfficeType, deadline?: number): Promise<string> {
  return generate({ ...ast, metadata: {} }, type, 'html', { htmlConfig: { standalone: false } }, deadline);
}

const iso = (value: unknown): string | undefined => {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  if (typeof value === 'string' && value.trim()) return value.trim();
  return undefined;
};

/**
 * The document properties officeparser read: title, author, subject (as `description`, else the description or
 * comments), keywords, language, dates, the page count a writer stored.
 */
export function officeMetadata(ast: OfficeParserAST): DocumentMetadata {
  const raw = ast.metadata ?? {};
  // OpenDocument's dc:creator is whoever saved the file last; its author is meta:initial-creator (OOXML's dc:creator)
  const native = (raw as { nativeProperties?: Record<string, unknown> }).nativeProperties;
  const initial = native?.['meta:initial-creator'];
  const author = typeof initial === 'string' && initial.trim() ? initial : raw.author;
  return statedMetadata({
    title: raw.title?.trim(),
    author: author?.trim(),
    description: raw.subject?.trim() || raw.description?.trim(),
    keywords: raw.keywords?.trim(),
    // officeparser reads the language of a PDF or EPUB only; Word and OpenDocument keep theirs in dc:language
    language: raw.language?.trim() || (typeof native?.['dc:language'] === 'string' && native['dc:language'].trim()),
    created: iso(raw.created),
    modified: iso(raw.modified),
    numPages: typeof raw.pages === 'number' && raw.pages > 0 && raw.pages,
  });
}

/** The text of a node and its descendants. */
export function nodeText(node: OfficeContentNode): string {
  if (typeof node.text === 'string' && node.text) return node.text;
  return (node.children ?? []).map(nodeText).join(' ');
}
