import type { JobKind } from '@crawlkit/store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PATHS: Record<JobKind, string> = { crawl: 'v2/crawl', batch: 'v2/batch/scrape' };
/** Base of job addresses when the caller gives none: there is no server, so the status methods read them. */
export const DEFAULT_JOB_BASE = 'crawlkit://';
/** The path of a status address: `/v2/crawl/<id>` or `/v2/batch/scrape/<id>`, under any base path. */
const STATUS_PATH = /\/v2\/(?:crawl|batch\/scrape)\/([^/]+)\/?$/;

/**
 * The status address of a job: `<base>v2/crawl/<id>?skip=100&limit=100`. `base` is `crawlkit://` in-process (the
 * status methods accept such an address in place of the id) and the server's own address over HTTP
 * (`http://127.0.0.1:3002/`).
 */
export function jobAddress(
  kind: JobKind,
  id: string,
  query?: { skip?: number; limit?: number },
  base: string = DEFAULT_JOB_BASE,
): string {
  const url = `${base.endsWith('/') ? base : `${base}/`}${PATHS[kind]}/${id}`;
  const params = new URLSearchParams();
  if (query?.skip !== undefined) params.set('skip', String(query.skip));
  if (query?.limit !== undefined) params.set('limit', String(query.limit));
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

export interface JobReference {
  id: string;
  skip?: number;
  limit?: number;
}

/**
 * Reads a job id or a status address (`crawlkit://v2/crawl/<id>?skip=…`, or the `http(s)://…/v2/crawl/<id>?skip=…`
 * of a server). Returns undefined when it is neither (or not a string).
 */
export function parseJobReference(value: unknown): JobReference | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (UUID.test(trimmed)) return { id: trimmed.toLowerCase() };
  if (!/^(?:crawlkit|https?):/i.test(trimmed)) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  // `crawlkit://v2/crawl/<id>` parses with `v2` as the host.
  const path = url.protocol === 'crawlkit:' ? `/${url.host}${url.pathname}` : url.pathname;
  const id = STATUS_PATH.exec(path)?.[1] ?? '';
  if (!UUID.test(id)) return undefined;
  const ref: JobReference = { id: id.toLowerCase() };
  const skip = Number(url.searchParams.get('skip'));
  const limit = Number(url.searchParams.get('limit'));
  if (url.searchParams.has('skip') && Number.isInteger(skip) && skip >= 0) ref.skip = skip;
  if (url.searchParams.has('limit') && Number.isInteger(limit) && limit > 0) ref.limit = limit;
  return ref;
}

export const INVALID_JOB_ID = 'Invalid job ID format. Job ID must be a valid UUID.';
