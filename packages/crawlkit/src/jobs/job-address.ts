import type { JobKind } from '@crawlkit/store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SCHEME = 'crawlkit:';
const PATHS: Record<JobKind, string> = { crawl: 'v2/crawl', batch: 'v2/batch/scrape' };

/**
 * The status address of a job. There is no server, so it is a `crawlkit://` URL that the status methods accept in
 * place of the id: `crawlkit://v2/crawl/<id>?skip=100&limit=100`.
 */
export function jobAddress(kind: JobKind, id: string, query?: { skip?: number; limit?: number }): string {
  const url = `crawlkit://${PATHS[kind]}/${id}`;
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

/** Reads a job id or a `crawlkit://` status address. Returns undefined when it is neither (or not a string). */
export function parseJobReference(value: unknown): JobReference | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (UUID.test(trimmed)) return { id: trimmed.toLowerCase() };
  if (!trimmed.startsWith(SCHEME)) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return undefined;
  }
  const id = url.pathname.split('/').filter(Boolean).pop() ?? '';
  if (!UUID.test(id)) return undefined;
  const ref: JobReference = { id: id.toLowerCase() };
  const skip = Number(url.searchParams.get('skip'));
  const limit = Number(url.searchParams.get('limit'));
  if (url.searchParams.has('skip') && Number.isInteger(skip) && skip >= 0) ref.skip = skip;
  if (url.searchParams.has('limit') && Number.isInteger(limit) && limit > 0) ref.limit = limit;
  return ref;
}

export const INVALID_JOB_ID = 'Invalid job ID format. Job ID must be a valid UUID.';
