/**
 * `crawlkit crawl … | head`: the reader of stdout goes away while pages are still coming. The command stops as one
 * Ctrl-C stops it (the job resumable, said on stderr), not with an unhandled EPIPE and its stack trace, and exits
 * with SIGPIPE's code (141), as `yes | head -1` does, not Ctrl-C's.
 */
import { expect, it } from 'vitest';

import { startChainCrawl } from './helpers/cli-interrupt.ts';
import { CHAIN_LENGTH, useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();

it('stops like Ctrl-C when the reader of its output goes away, saying so, with exit code 141', async () => {
  const child = startChainCrawl(site, ['--limit', String(CHAIN_LENGTH)]);
  // The first page printed, the reader leaves (as `head -1` does): the pages still to come have nowhere to go.
  child.stdout!.once('data', () => child.stdout!.destroy());
  const { code, stderr } = await child.result;
  // Before: exit 1, "Unhandled 'error' event ... Error: write EPIPE" and its stack.
  expect(stderr).not.toMatch(/EPIPE|Unhandled/);
  // Before: "Interrupted: … kept" and exit 130, as if Ctrl-C had been pressed.
  expect(stderr).toMatch(
    /Stopped, the reader of the output went away: \d+ pages? kept\. Resume with:\n {2}crawlkit resume [0-9a-f-]{36}/,
  );
  expect(code).toBe(141);
}, 60_000);
