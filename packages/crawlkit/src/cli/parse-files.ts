/**
 * `crawlkit parse` over several files: the paths given (a shell's glob gives many) and the files under each directory
 * given, converted a few at a time, printed and written in the order they are listed; a file that fails is reported
 * and the others go on, as a batch's pages do.
 */
import { readdir, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative, sep } from 'node:path';

import type { ParseOptionsInput } from '../api/parse.js';
import type { ErrorResponse, ScrapeResponse } from '../v2/types.js';
import type { CommandContext } from './context.js';
import { count } from './count.js';
import { CliError, EXIT } from './errors.js';
import { withFlags } from './option-flags.js';
import { OutDir } from './out-dir.js';
import { PageOutput } from './page-output.js';
import { readParseFile } from './parse-read.js';
import { VERSION } from './version.js';

/** A file to parse: where it is, and the name its document gets (`sourceURL`, and the `--out` file names). */
export interface ParseInput {
  path: string;
  name: string;
}

/** Failures the summary lists on stderr; `--json` and the manifest have them all. */
const LISTED_FAILURES = 20;

/** The files under `dir`, every level down, by name; hidden ones (`.git`, `.DS_Store`) left out. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(path)));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/**
 * The files the arguments name: a file as given (its name is its path as typed), a directory's files under it (named
 * by their path from the directory, `q3/report.docx`). A path that does not exist is bad input.
 */
export async function parseInputs(paths: string[]): Promise<ParseInput[]> {
  const inputs: ParseInput[] = [];
  for (const path of paths) {
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(path)).isDirectory();
    } catch (error) {
      throw new CliError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
    }
    if (!isDirectory) {
      inputs.push({ path, name: path });
      continue;
    }
    const files = await filesUnder(path);
    if (!files.length) throw new CliError(`${path} holds no file to parse.`);
    for (const file of files) inputs.push({ path: file, name: relative(path, file).split(sep).join('/') });
  }
  return inputs;
}

/** Converts every input and prints them as `crawlkit batch` prints its pages; answers the exit code. */
export async function parseFiles(
  ctx: CommandContext,
  inputs: ParseInput[],
  options: ParseOptionsInput,
  contentType: string | undefined,
): Promise<number> {
  await ctx.load();
  const limit = ctx.engine.parseFileLimit;
  const startedAt = new Date().toISOString();
  const input = inputs.map((i) => i.path);
  const outDir = ctx.options.out
    ? new OutDir(ctx.options.out, { version: VERSION, command: 'parse', input, status: 'scraping', startedAt })
    : undefined;
  const output = new PageOutput(ctx, { multi: true, ...(outDir ? { outDir } : {}) });
  const one = async ({ path, name }: ParseInput): Promise<ScrapeResponse | ErrorResponse> => {
    let data: Uint8Array | ErrorResponse;
    try {
      data = await readParseFile(path, limit);
    } catch (error) {
      return { success: false, error: `Cannot read ${path}: ${(error as Error).message}` };
    }
    if (!(data instanceof Uint8Array)) return data;
    const file = { data, filename: name, ...(contentType !== undefined ? { contentType } : {}) };
    return ctx.engine.parse(file, options, { signal: ctx.signal });
  };
  // a few at a time (the extraction workers convert them), printed in the order listed
  const running = new Map<number, Promise<ScrapeResponse | ErrorResponse>>();
  const width = Math.max(1, availableParallelism());
  let started = 0;
  const startNext = () => {
    if (started >= inputs.length) return;
    running.set(started, one(inputs[started]!));
    started++;
  };
  for (let i = 0; i < width; i++) startNext();
  let converted = 0;
  const failures: { url: string; error: string; code?: string }[] = [];
  let credits = 0;
  for (let index = 0; index < inputs.length; index++) {
    const response = await running.get(index)!;
    running.delete(index);
    if (ctx.signal.aborted) {
      await outDir?.finish({ status: 'interrupted', finishedAt: new Date().toISOString(), completed: converted });
      return EXIT.interrupted;
    }
    if (!response.success && response.details !== undefined) {
      // an option the API refused: every file would fail alike
      await Promise.allSettled(running.values());
      return ctx.fail(response);
    }
    startNext();
    const name = inputs[index]!.name;
    if (response.success) {
      converted++;
      credits += response.data.metadata.creditsUsed ?? 0;
      await output.page(response.data);
      if (response.data.warning) ctx.note(`warning: ${name}: ${withFlags(response.data.warning)}`);
    } else {
      failures.push({ url: name, error: response.error, ...(response.code ? { code: response.code } : {}) });
      if (ctx.mode === 'ndjson') ctx.write(`${JSON.stringify({ ...response, sourceURL: name })}\n`);
    }
  }
  const status = converted ? 'completed' : 'failed';
  if (ctx.mode === 'json') {
    const summary = { total: inputs.length, completed: converted, creditsUsed: credits };
    ctx.writeJson({ success: converted > 0, status, ...summary, data: output.documents, errors: failures });
  }
  await outDir?.finish({
    status,
    finishedAt: new Date().toISOString(),
    total: inputs.length,
    completed: converted,
    creditsUsed: credits,
    errors: failures,
  });
  ctx.note(
    `parse: ${count(converted, 'document')}, ${count(failures.length, 'error')}, ` +
      `${count(credits, 'credit')}${outDir ? `; written to ${ctx.options.out}` : ''}`,
  );
  for (const failure of failures.slice(0, LISTED_FAILURES)) {
    ctx.note(`  failed: ${failure.url}: ${failure.error}${failure.code ? ` (${failure.code})` : ''}`);
  }
  if (failures.length > LISTED_FAILURES) {
    ctx.note(
      `  … and ${failures.length - LISTED_FAILURES} more${outDir ? ' in manifest.json' : ' (--json lists them)'}`,
    );
  }
  return converted > 0 || failures.length === 0 ? ctx.doneExit(failures.length) : EXIT.failure;
}
