import { indexWarc, type WarcFileIndex } from '@crawlkit/fetcher/warc';
import type { Command } from 'commander';

import { recordedJobCodec, type RecordedJob } from '../codec/records.js';
import { JOB_INFO_FIELD } from '../record/job-recording.js';
import type { CrawlRequestInput } from '../v2/jobs.js';
import { buildBody } from './body-flags.js';
import type { CommandContext } from './context.js';
import { CliError } from './errors.js';
import { followJob } from './follow-job.js';

/** What a recording says it recorded (`crawlkit-job` in its `warcinfo`), when crawlkit wrote it. */
function recordedJob(index: WarcFileIndex): RecordedJob | undefined {
  const text = index.info?.[JOB_INFO_FIELD];
  if (!text) return undefined;
  try {
    return recordedJobCodec.decode(text);
  } catch {
    return undefined; // not crawlkit's (or damaged): replayed as a foreign file, every response a page
  }
}

/**
 * `crawlkit replay <files...>`: runs the recorded job again from the WARC files, with no network (`engine: 'replay'`,
 * a memory store): a recorded crawl (the first file's) is crawled again from its seed with its options; otherwise
 * the pages of every file (a batch's or a scrape's, every response of a file crawlkit did not write) are scraped as
 * one batch, with the options of the first file crawlkit wrote. The scrape flags (`--format`, `--only-main-content`,
 * ...) replace the recorded ones. Prints documents as `crawlkit crawl` does.
 */
export async function replayCommand(ctx: CommandContext, files: string[], command: Command): Promise<number> {
  if (ctx.options.engine !== undefined)
    throw new CliError('`crawlkit replay` always uses the replay engine: drop --engine.');
  const indexes: WarcFileIndex[] = [];
  for (const file of files) {
    try {
      indexes.push(await indexWarc(file));
    } catch (error) {
      throw new CliError(`Cannot read the recording ${file}: ${(error as Error).message}`, {
        cause: error,
        code: 'REPLAY_FILE_UNREADABLE',
      });
    }
  }
  ctx.configure({ store: 'memory', engine: 'replay', replay: { files } });
  const jobs = indexes.map(recordedJob);
  const scrapeFlags = buildBody(command, 'scrape', {}, {});
  await ctx.load();
  const first = jobs[0];
  if (first?.kind === 'crawl') {
    const { scrapeOptions, ...crawl } = first.request;
    const body = { ...crawl, scrapeOptions: { ...(scrapeOptions as object), ...scrapeFlags } };
    const started = await ctx.engine.crawl(body as unknown as CrawlRequestInput, { signal: ctx.signal });
    if (!started.success) return ctx.fail(started);
    ctx.note(`replaying crawl of ${String(crawl.url)} from ${files.join(', ')}`);
    if (files.length > 1) {
      ctx.note(
        `note: the crawl recorded in ${files[0]} is replayed; the other files answer only the URLs it asks for ` +
          '(replay them alone, or put one of them first, for their own pages)',
      );
    }
    return followJob(ctx, { id: started.id, kind: 'crawl', command: 'replay', input: files });
  }
  const urls = [
    ...new Set(indexes.flatMap((index) => (index.pages.length ? index.pages : [...index.responses.keys()]))),
  ];
  if (!urls.length) throw new CliError(`The recordings ${files.join(', ')} hold no response to replay.`);
  const { url: _url, ...options } = jobs.find((job) => job !== undefined)?.request ?? {};
  const body = { ...options, ...scrapeFlags, urls, ignoreInvalidURLs: true };
  const started = await ctx.engine.batchScrape(body, { signal: ctx.signal });
  if (!started.success) return ctx.fail(started);
  ctx.note(`replaying ${urls.length} page(s) from ${files.join(', ')}`);
  return followJob(ctx, { id: started.id, kind: 'batch', command: 'replay', input: files });
}
