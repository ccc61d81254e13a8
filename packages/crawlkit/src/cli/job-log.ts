import type { Crawlkit } from '../crawlkit.js';
import type { CrawlkitEvents } from '../events.js';
import type { Logger } from '../logger.js';
import { formatSeconds } from './progress.js';

/** `3.4 s` under a minute (a job of a few pages), else the progress bar's form: `2m05s`, `1h01m`. */
function took(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatSeconds(ms / 1000);
}

/** The line of a job the engine ended, with its pages and time from its status (without them if the store fails). */
async function endLine(engine: Crawlkit, log: Logger, event: CrawlkitEvents['job:completed'][0]): Promise<void> {
  const { id, kind, status } = event;
  // The job has ended: this answers at once, its counts without its documents.
  const answer = await engine.waitForJob(id, { documents: false }).catch(() => undefined);
  const fields: Record<string, unknown> = { event: 'job-ended', kind, id, status };
  let counts = '';
  let reason = '';
  if (answer?.success) {
    const ms =
      answer.completedAt && answer.createdAt
        ? Date.parse(answer.completedAt) - Date.parse(answer.createdAt)
        : undefined;
    Object.assign(fields, { completed: answer.completed, total: answer.total, ...(ms === undefined ? {} : { ms }) });
    counts = `: ${answer.completed}/${answer.total} pages${ms === undefined ? '' : ` in ${took(ms)}`}`;
    if (status === 'failed' && answer.warning) reason = ` (${answer.warning})`;
  }
  const line = `${kind} ${id} ${status}${counts}${reason}`;
  if (status === 'failed') log.warn(line, fields);
  else log.info(line, fields);
}

/**
 * Writes a line when the engine takes a job (`job:started`: kind, id, a crawl's URL or a batch's count of URLs) and
 * when one ends (status, pages, time). A job run in this process ends here (`job:completed`); with `follow` (serve
 * `--redis`: the deployment's workers run its jobs, and their end is no event of this process) each job taken is
 * followed in the store to its end instead, which is logged the same way. Returns what stops it.
 */
export function logJobs(engine: Crawlkit, log: Logger, follow = false): () => void {
  const stop = new AbortController();
  const ended = (event: CrawlkitEvents['job:completed'][0]) => void endLine(engine, log, event);
  const followed = async (id: string, kind: CrawlkitEvents['job:started'][0]['kind']) => {
    const end = await engine.waitForJob(id, { documents: false, signal: stop.signal }).catch(() => undefined);
    const status = end?.success ? end.status : undefined;
    // Stopped before its end (serve stops): the job goes on in the workers, with nothing to log here.
    if (status === 'completed' || status === 'failed' || status === 'cancelled') ended({ id, kind, status });
  };
  const started = ({ id, kind, url, urls }: CrawlkitEvents['job:started'][0]) => {
    const what = url ?? (urls === undefined ? '' : `${urls} URL${urls === 1 ? '' : 's'}`);
    const fields = {
      event: 'job-accepted',
      kind,
      id,
      ...(url === undefined ? {} : { url }),
      ...(urls === undefined ? {} : { urls }),
    };
    log.info(`${kind} ${id} accepted${what ? `: ${what}` : ''}`, fields);
    if (follow) void followed(id, kind);
  };
  engine.on('job:started', started);
  // Followed, a job's end is learnt from the store alone: a cancel answered here is not told twice.
  if (!follow) engine.on('job:completed', ended);
  return () => {
    stop.abort();
    engine.off('job:started', started);
    engine.off('job:completed', ended);
  };
}
