/**
 * `firecrawl_parse` as firecrawl-mcp's local mode has it: a file of this machine's filesystem, by its path, read into
 * a v2 document by the engine (`Crawlkit#parse`, what `POST /v2/parse` answers), within serve's `parseFileLimit`.
 */
import type { Stats } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve } from 'node:path';

import { sizeText, type ParseFile } from 'crawlkit';
import { z } from 'zod';

import { byDefault, nullable, scrapeOptionsOf, scrapeParams, withoutNulls } from './tool-params.js';
import type { ToolKit } from './tool-kit.js';

/** Where `firecrawl_parse` reads files, and how large. */
export interface ParseFiles {
  /**
   * The folder files are read under: relative paths against it, and no path out of it (a symbolic link neither).
   * @default none: any path the server process can read, relative ones against its working directory
   */
  root?: string;
  /** Largest file read, in bytes (serve's `parseFileLimit`). */
  limit: number;
}

type V2Error = { success: false; code: 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE'; error: string };

const { jsonOptions, queryOptions, parsers, pdfOptions, onlyMainContent, includeTags, excludeTags } = scrapeParams;
const { removeBase64Images, skipTlsVerification, zeroDataRetention } = scrapeParams;

/** firecrawl-mcp's `parseParamsSchema` (local mode). */
export const parseShape = {
  filePath: z
    .string()
    .min(1)
    .describe(
      'Path of the file to parse, on the machine crawlkit mcp runs on (PDF, Word, Excel, PowerPoint, OpenDocument, ' +
        'RTF, EPUB, HTML, CSV, text, images).',
    ),
  ...nullable({
    contentType: z.string().optional().describe('MIME type of the file; by default told by its name and bytes.'),
    formats: z
      .array(z.enum(['markdown', 'html', 'rawHtml', 'links', 'summary', 'json', 'query']))
      .optional()
      .describe(byDefault('What to return; json takes jsonOptions, query takes queryOptions.', ['markdown'])),
    redactPII: z.boolean().optional().describe('Redact personal data (names, emails, phone numbers) in the text.'),
    storeInCache: z.boolean().optional().describe('Ignored: a parse is never cached.'),
    maxAge: z.number().optional().describe('Ignored: a parse never reuses or stores indexed content.'),
    proxy: z.enum(['basic', 'auto']).optional().describe('Ignored: a file goes through no proxy.'),
  }),
  jsonOptions,
  queryOptions,
  parsers,
  pdfOptions,
  onlyMainContent,
  includeTags,
  excludeTags,
  removeBase64Images,
  skipTlsVerification,
  zeroDataRetention,
};

const bad = (error: string): V2Error => ({ success: false, code: 'BAD_REQUEST', error });

/** Whether `path` is `root` or under it. */
const under = (root: string, path: string) => {
  const inside = relative(root, path);
  return !inside.startsWith('..') && !isAbsolute(inside);
};

/** The file at `filePath`, read within `files`; a path that is no readable file is told what to give. */
async function localFile(filePath: string, contentType: string | undefined, files: ParseFiles) {
  const base = files.root ?? process.cwd();
  const path = resolve(base, filePath);
  const outside = bad(
    `${filePath} is outside the folder firecrawl_parse reads (${base}; crawlkit mcp --parse-root): give the path ` +
      'of a file in it, or relative to it.',
  );
  if (files.root && !under(base, path)) return outside;
  let info: Stats;
  try {
    info = await stat(path);
    // A symbolic link under the root may lead out of it.
    if (files.root && !under(await realpath(base), await realpath(path))) return outside;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return bad(
        `No file at ${path} (a relative path is read against ${base}, the server's ` +
          `${files.root ? 'parse root' : 'working directory'}): check the path, or give it absolute.`,
      );
    }
    return bad(`${path} cannot be read (${code ?? (error as Error).message}): give a file the server may read.`);
  }
  if (info.isDirectory()) return bad(`${path} is a directory: give the path of one file in it.`);
  if (!info.isFile()) return bad(`${path} is not a regular file: give the path of a document.`);
  if (info.size > files.limit) {
    return {
      success: false,
      code: 'PAYLOAD_TOO_LARGE',
      error:
        `${path} is ${sizeText(info.size)}, larger than the ${sizeText(files.limit)} firecrawl_parse reads (the server's ` +
        'parseFileLimit, crawlkit mcp --parse-file-limit): give a smaller file, or raise the limit.',
    } satisfies V2Error;
  }
  try {
    const data = await readFile(path);
    return { data, filename: basename(path), ...(contentType ? { contentType } : {}) } satisfies ParseFile;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return bad(`${path} cannot be read (${code ?? (error as Error).message}): give a file the server may read.`);
  }
}

/** Registers `firecrawl_parse`, reading files within `files`. */
export function registerParseTool({ ck, admission, session, tool, result, call }: ToolKit, files: ParseFiles): void {
  const where = files.root
    ? `under ${files.root} (relative paths against it)`
    : "on the server's filesystem (relative paths against the working directory of the crawlkit mcp process)";
  tool(
    'firecrawl_parse',
    {
      title: 'Parse a file',
      description:
        'Parse one document into markdown (or HTML, links, a summary, an answer to a query, JSON matching a schema): ' +
        'PDF (bounded with `pdfOptions.maxPages`), Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, HTML, CSV, text ' +
        `and images (OCR). \`filePath\` is read ${where}; a web URL belongs in \`firecrawl_scrape\`.`,
      inputSchema: parseShape,
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args, { signal }) => {
      const { filePath, contentType, storeInCache: _cache, maxAge: _age, proxy: _proxy, ...options } = args;
      const file = await localFile(filePath, contentType ?? undefined, files);
      if ('success' in file) return result(file);
      const parseOptions = scrapeOptionsOf(withoutNulls(options));
      return result(await admission.queued(() => ck.parse(file, parseOptions, call(signal)), session.tenant));
    },
  );
}
