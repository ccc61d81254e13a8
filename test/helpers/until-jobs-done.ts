/**
 * The end of a kill test's child process: runs until no job of its store is unfinished (another process may be
 * driving one, holding its lease: this one waits and takes over if that one dies), closes the engine, prints `done`.
 */
import type { Crawlkit } from 'crawlkit';

export async function untilJobsDone(ck: Crawlkit): Promise<void> {
  for (;;) {
    const unfinished = await ck.listUnfinishedJobs();
    if (!Array.isArray(unfinished)) throw new Error(unfinished.error);
    if (unfinished.length === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await ck.close();
  process.stdout.write('done\n');
}
