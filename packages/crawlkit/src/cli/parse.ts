import { basename } from 'node:path';

import type { Command } from 'commander';

import type { ParseOptionsInput } from '../api/parse.js';
import type { ErrorResponse } from '../v2/types.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { withFlags } from './option-flags.js';
import { OutDir } from './out-dir.js';
import { parseFiles, parseInputs } from './parse-files.js';
import { PageOutput } from './page-output.js';
import { readParseFile } from './parse-read.js';
import { pdfMaxPagesValue, withPdfMaxPages } from './pdf-pages.js';
import { VERSION } from './version.js';

interface ParseFlags {
  format?: string;
  pdfMode?: string;
  images?: boolean;
  contentType?: string;
  timeout?: string;
  body?: string;
  parseFileLimit?: string;
  pdfMaxPages?: string;
}

/** The parse options: `--body`, with the flags given on top. */
function parseOptions(base: Record<string, unknown>, flags: ParseFlags): ParseOptionsInput {
  const options: Record<string, unknown> = { ...base };
  if (flags.format !== undefined) options.formats = flags.format.split(',').map((f) => f.trim());
  if (flags.timeout !== undefined)
    options.timeout = /^\d+$/.test(flags.timeout) ? Number(flags.timeout) : flags.timeout;
  if (flags.pdfMode !== undefined || flags.images === false) {
    const pdf = flags.pdfMode !== undefined ? { type: 'pdf', mode: flags.pdfMode } : { type: 'pdf' };
    options.parsers = flags.images === false ? [pdf] : [pdf, { type: 'image' }];
  }
  if (flags.pdfMaxPages !== undefined) {
    options.parsers = withPdfMaxPages(options.parsers, ['pdf', 'image'], pdfMaxPagesValue(flags.pdfMaxPages));
  }
  return options;
}

/**
 * `crawlkit parse FILE...`: converts local files as `POST /v2/parse` does, and prints their markdown. One file prints
 * as itself; several, or a directory (its files, every level down), print and write as a batch's pages do.
 */
export async function parseCommand(ctx: CommandContext, paths: string[], command: Command): Promise<number> {
  const flags = command.opts<ParseFlags>();
  const options = parseOptions(await ctx.readBody(flags.body), flags);
  const parseFileLimit = integerFlag('--parse-file-limit', flags.parseFileLimit);
  if (parseFileLimit !== undefined) ctx.configure({ parseFileLimit });
  for (const path of paths) {
    if (/^https?:\/\//i.test(path)) {
      throw new CliError(`${path} is a URL, not a local file: \`crawlkit scrape ${path}\` fetches and converts it`);
    }
  }
  const inputs = await parseInputs(paths);
  if (paths.length > 1 || inputs.length !== 1 || inputs[0]!.path !== paths[0]) {
    return parseFiles(ctx, inputs, options, flags.contentType);
  }
  const path = paths[0];
  await ctx.load();
  const limit = ctx.engine.parseFileLimit;
  let data: Uint8Array | ErrorResponse;
  try {
    data = await readParseFile(path, limit);
  } catch (error) {
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (!(data instanceof Uint8Array)) return ctx.fail(data);
  const file = {
    data,
    filename: basename(path),
    ...(flags.contentType !== undefined ? { contentType: flags.contentType } : {}),
  };
  const response = await ctx.engine.parse(file, options, { signal: ctx.signal });
  if (!response.success) return ctx.signal.aborted ? EXIT.interrupted : ctx.fail(response);
  const startedAt = new Date().toISOString();
  const outDir = ctx.options.out
    ? new OutDir(ctx.options.out, { version: VERSION, command: 'parse', input: path, status: 'completed', startedAt })
    : undefined;
  const output = new PageOutput(ctx, { multi: false, ...(outDir ? { outDir } : {}) });
  await output.page(response.data);
  if (ctx.mode === 'json') ctx.writeJson(response);
  await outDir?.finish({ finishedAt: new Date().toISOString(), total: 1, completed: 1 });
  if (response.data.warning) ctx.note(`warning: ${withFlags(response.data.warning)}`);
  if (outDir) ctx.note(`written to ${ctx.options.out}`);
  return EXIT.ok;
}
