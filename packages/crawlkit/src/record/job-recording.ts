import { urlKey, type ExchangeSink, type WarcWriter } from '@crawlkit/fetcher';
import type { JobRecord } from '@crawlkit/store';

import { recordedJobCodec, storedJobOf, type RecordedJob } from '../codec/records.js';
import type { EngineContext } from '../context.js';

/** The `warcinfo` field that names what was recorded: `{ kind, request }`, which `crawlkit replay` runs again. */
export const JOB_INFO_FIELD = 'crawlkit-job';

/** What a recording says of its job: the request without secrets (header values, the webhook). */
export function jobInfo(kind: RecordedJob['kind'], request: object): Record<string, string> {
  const { headers: _headers, webhook: _webhook, record: _record, ...rest } = request as Record<string, unknown>;
  const options = rest.scrapeOptions as Record<string, unknown> | undefined;
  if (options) {
    const { headers: _scrapeHeaders, ...scrapeOptions } = options;
    rest.scrapeOptions = scrapeOptions;
  }
  return { [JOB_INFO_FIELD]: recordedJobCodec.encode({ kind, request: rest }) };
}

/** `ctx` with the job's recording open, when the job was submitted with `record: true`. */
export function withRecording(ctx: EngineContext, job: JobRecord): EngineContext {
  const { request } = storedJobOf<{ record?: boolean }>(job);
  if (!request.record) return ctx;
  return { ...ctx, recording: ctx.recordings.open(job.id, jobInfo(job.kind, request)) };
}

/** The fetch hook that writes to `writer`; with `pageUrl`, the exchange of that URL is marked as the page's start. */
export function recorder(writer: WarcWriter, pageUrl?: string): ExchangeSink {
  const page = pageUrl === undefined ? undefined : sameUrl(pageUrl);
  return (exchange) => writer.add(exchange, page?.(exchange.url) ?? false);
}

function sameUrl(url: string): (other: string) => boolean {
  const key = urlKey(url);
  return (other) => urlKey(other) === key;
}
