/**
 * `crawlkit resume`'s exit code is the job's, as the command that started it would have exited: 0 when the job has
 * pages, even if the resume itself added none and its pages left all failed.
 */
import { describe, expect, it } from 'vitest';

import { startCli } from './cli-helpers.ts';
import { jobIdOf, useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();

describe('the exit code of a resume', { timeout: 120_000 }, () => {
  it('is 0 when the pages left all fail but the job has pages', async () => {
    // One page at a time: the hanging page is in flight when Ctrl-C comes, after the first page is printed.
    const urls = `${site.server.url}/cli/chain/0\n${site.server.url}/hostile/hang\n`;
    const args = ['batch', '-', '--ndjson', '--max-concurrency', '1', '--timeout', '3000', '--max-age', '0'];
    const child = startCli([...args, '--store', site.store], { cwd: site.dir, input: urls });
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', () => resolve());
      void child.result.then(() => resolve());
    });
    child.kill('SIGINT');
    const first = await child.result;
    expect(first.code, first.stderr).toBe(130);
    const resumed = await site.cli(['resume', jobIdOf(first.stderr), '--ndjson']);
    expect(resumed.stderr).toContain('0 pages since the resume (1 in all), 1 error');
    expect(resumed.code, resumed.stderr).toBe(0);
  });
});
