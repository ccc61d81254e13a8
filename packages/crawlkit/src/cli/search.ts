import type { Command } from 'commander';

import type { LocalResult } from '../search/local-source.js';
import type { SearchRequestInput } from '../search/request.js';
import type { SearchResult } from '../search/run-search.js';
import type { Document } from '../v2/types.js';
import type { CommandContext } from './context.js';
import { EXIT } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { providerFromFlags, type ProviderFlags } from './search-provider.js';
import { readServeFile, type ServeConfigFlags } from './serve-config.js';

interface SearchFlags extends ProviderFlags, Pick<ServeConfigFlags, 'config'> {
  limit?: string;
  site?: string[];
  excludeSite?: string[];
  tbs?: string;
  source?: string[];
  location?: string;
  country?: string;
  timeout?: string;
  format?: string;
}

/** `crawlkit search QUERY`: the pages the store holds (and the web, with a provider), best first. */
export async function searchCommand(ctx: CommandContext, words: string[], command: Command): Promise<number> {
  const flags = command.opts<SearchFlags>();
  const provider = providerFromFlags(flags, process.env, readServeFile(flags, process.env, process.cwd()));
  if (provider) ctx.configure({ search: { provider } });
  else if (ctx.storeMissing) {
    // Opening it would make an empty store and answer "no results", as if nothing matched.
    return ctx.fail({
      success: false,
      code: 'CLI_USAGE',
      error:
        `There is no store at ${ctx.storePlace} to search: search reads the pages that scrape, crawl and batch stored ` +
        'in their store (pass their --store, or set CRAWLKIT_STORE).',
    });
  }
  const limit = integerFlag('--limit', flags.limit);
  const body: SearchRequestInput = { query: words.join(' ') };
  if (limit !== undefined) body.limit = limit;
  const timeout = integerFlag('--timeout', flags.timeout);
  if (timeout !== undefined) body.timeout = timeout;
  if (flags.site?.length) body.includeDomains = flags.site;
  if (flags.excludeSite?.length) body.excludeDomains = flags.excludeSite;
  if (flags.tbs) body.tbs = flags.tbs;
  if (flags.source?.length) body.sources = flags.source;
  if (flags.location !== undefined) body.location = flags.location;
  if (flags.country !== undefined) body.country = flags.country;
  const formats = flags.format
    ?.split(',')
    .map((format) => format.trim())
    .filter(Boolean);
  if (formats?.length) body.scrapeOptions = { formats: formats as never };
  await ctx.load();
  const response = await ctx.engine.search(body, { signal: ctx.signal });
  if (!response.success) return ctx.signal.aborted ? EXIT.interrupted : ctx.fail(response);
  if (ctx.mode === 'json') ctx.writeJson(response);
  else if (ctx.mode === 'ndjson') {
    for (const [source, results] of Object.entries(response.data)) {
      for (const result of results) ctx.write(`${JSON.stringify({ source, ...result })}\n`);
    }
  } else {
    const results = Object.values(response.data).flat();
    results.forEach((result, i) => ctx.write(describe(result, i + 1)));
    if (results.length === 0) ctx.note('no results');
  }
  if (response.warning) ctx.note(`warning: ${response.warning}`);
  return EXIT.ok;
}

function describe(result: SearchResult, position: number): string {
  const lines = [`${position}. ${result.title || result.url}`, `   ${result.url}`];
  if (result.description) lines.push(`   ${result.description}`);
  const stored = (result as Partial<LocalResult>).storedAt;
  if (stored) lines.push(`   stored ${stored}`);
  // What `--format` scraped: the page's text formats under its result; why it has none when its scrape failed.
  const page = result as Partial<Document>;
  if (page.metadata?.error) lines.push(`   not scraped: ${page.metadata.error}`);
  for (const text of [page.markdown, page.summary, page.html, page.rawHtml]) if (text) lines.push('', text.trim());
  if (page.links?.length) lines.push('', ...page.links);
  return `${lines.join('\n')}\n\n`;
}
