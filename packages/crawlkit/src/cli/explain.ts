// `crawlkit explain <url>`: every block of a page with its verdict (kept, or dropped) and the rule that decided, and
// the includeTags that would keep a dropped paragraph.
import { readFile } from 'node:fs/promises';

import { explainPage, type ExplainedBlock } from '@crawlkit/extractor';
import type { Command } from 'commander';

import { explanationText } from '../scrape/explanation.js';
import type { ScrapeRequestInput } from '../v2/scrape-options.js';
import { buildBody } from './body-flags.js';
import type { CommandContext } from './context.js';
import { CliError, EXIT } from './errors.js';
import { isLocalFile } from './local-file.js';

interface ExplainFlags {
  find?: string;
  html?: string;
  body?: string;
}

/** The page's HTML: fetched through a scrape (same engine, headers and actions), or read from `--html`. */
async function pageHtml(
  ctx: CommandContext,
  body: Record<string, unknown>,
  file: string | undefined,
): Promise<{ html: string; url: string } | number> {
  const url = typeof body.url === 'string' ? body.url : undefined;
  if (file !== undefined) {
    if (!url)
      throw new CliError('Give the page URL with --html (it is the base of its links): explain <url> --html <file>');
    return { html: await readFile(file, 'utf8'), url };
  }
  if (!url) throw new CliError('Give the URL of the page to explain: crawlkit explain <url>');
  await ctx.load();
  const response = await ctx.engine.scrape({ ...body, formats: ['rawHtml'] } as unknown as ScrapeRequestInput, {
    signal: ctx.signal,
  });
  if (!response.success) return ctx.signal.aborted ? EXIT.interrupted : ctx.fail(response);
  const { metadata, rawHtml } = response.data;
  if (metadata.statusCode >= 400) ctx.note(`note: the page answered HTTP ${metadata.statusCode}`);
  return { html: rawHtml ?? '', url: metadata.url ?? url };
}

/** `crawlkit explain <url>`: prints the page's blocks with their verdicts and rules. */
export async function explainCommand(ctx: CommandContext, url: string | undefined, command: Command): Promise<number> {
  const flags = command.opts<ExplainFlags>();
  if (url !== undefined && flags.html === undefined && isLocalFile(url)) {
    throw new CliError(
      `"${url}" is a local file, not a URL: \`crawlkit explain <the page's URL> --html ${url}\` explains it`,
    );
  }
  const body = buildBody(command, 'scrape', await ctx.readBody(flags.body), url !== undefined ? { url } : {});
  const page = await pageHtml(ctx, body, flags.html);
  if (typeof page === 'number') return page;
  const find = flags.find?.toLowerCase();
  const list = (key: string): string[] | undefined => (Array.isArray(body[key]) ? (body[key] as string[]) : undefined);
  const includeTags = list('includeTags');
  const excludeTags = list('excludeTags');
  const explained = explainPage(page.html, {
    url: page.url,
    ...(typeof body.onlyMainContent === 'boolean' ? { onlyMainContent: body.onlyMainContent } : {}),
    ...(includeTags ? { includeTags } : {}),
    ...(excludeTags ? { excludeTags } : {}),
    ...(find !== undefined ? { suggest: (b: ExplainedBlock) => b.text.toLowerCase().includes(find) } : {}),
  });
  const blocks =
    find !== undefined ? explained.blocks.filter((b) => b.text.toLowerCase().includes(find)) : explained.blocks;
  if (ctx.mode === 'json') {
    ctx.writeJson({ url: page.url, ...explained, blocks });
    return EXIT.ok;
  }
  ctx.write(explanationText(page.url, explained, blocks, find !== undefined));
  for (const warning of explained.warnings) ctx.note(`warning: ${warning}`);
  if (find !== undefined && blocks.length === 0) {
    ctx.note(`no block of the page holds "${flags.find}" (it may be written by a script: try --engine browser)`);
    return EXIT.failure;
  }
  return EXIT.ok;
}
