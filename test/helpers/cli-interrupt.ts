/** A CLI crawl of the chain site interrupted with Ctrl-C (SIGINT), or another signal, once its first page is on stdout. */
import { startCli, type CliResult } from '../cli-helpers.ts';
import { jobIdOf, type CliSite } from './cli-site.ts';

/** Starts a slow crawl of `site`'s chain (one page at a time, no cache) with the output flags `flags`. */
export function startChainCrawl(site: CliSite, flags: string[]) {
  return startCli(
    [
      'crawl',
      `${site.server.url}/cli/chain/0`,
      '--crawl-entire-domain',
      '--max-concurrency',
      '1',
      '--max-age',
      '0',
      '--store',
      site.store,
      ...flags, // after the store, so that a test's own --store wins
    ],
    { cwd: site.dir },
  );
}

/**
 * Starts a slow crawl of `site`'s chain (`startChainCrawl`), waits for its first output on stdout, then sends
 * `signal` (default SIGINT, Ctrl-C's); the job's id and the finished command.
 */
export async function interruptedCrawl(
  site: CliSite,
  flags: string[],
  signal: NodeJS.Signals = 'SIGINT',
): Promise<{ id: string; result: CliResult }> {
  const child = startChainCrawl(site, flags);
  await new Promise<void>((resolve) => {
    child.stdout!.on('data', () => resolve());
    void child.result.then(() => resolve());
  });
  child.kill(signal);
  const result = await child.result;
  return { id: jobIdOf(result.stderr), result };
}
