import { parseJobReference } from '../jobs/job-address.js';
import type { JobManager } from '../jobs/job-manager.js';
import { visibleTo } from '../jobs/job-tenant.js';
import type { ErrorResponse } from '../v2/types.js';
import { invalidId, notFound } from './job-queries.js';

/** Which documents of a job to read, and how many characters of JSON at most (at least one document). */
export interface JobDocumentsPage {
  /** Documents skipped from the first. @default 0 */
  skip?: number;
  /** Documents at most. @default 1000 */
  limit?: number;
  /** Characters of JSON at most (the first document always comes). @default 1048576 (1 MiB) */
  maxChars?: number;
}

/** A page of a job's documents as the JSON text they are answered with. */
export interface JobDocumentsText {
  success: true;
  documents: string[];
}

const DEFAULTS = { skip: 0, limit: 1000, maxChars: 1024 ** 2 };

function badPage(name: string): ErrorResponse {
  return {
    success: false,
    code: 'BAD_REQUEST',
    error: `\`${name}\` must be a whole number (skip ≥ 0, limit and maxChars ≥ 1).`,
  };
}

/**
 * A page of a crawl's or batch's documents as the JSON text stored and answered, unparsed: what a server streams a
 * large job with, a page at a time, holding neither the job nor its parsed documents (the WebSocket catch-up).
 */
export async function readJobDocuments(
  jobs: JobManager,
  id: string,
  page: JobDocumentsPage,
  tenant: string | undefined,
): Promise<JobDocumentsText | ErrorResponse> {
  const ref = parseJobReference(id);
  if (!ref) return invalidId();
  const { skip, limit, maxChars } = { ...DEFAULTS, ...page };
  for (const [name, value, min] of [
    ['skip', skip, 0],
    ['limit', limit, 1],
    ['maxChars', maxChars, 1],
  ] as const) {
    if (!Number.isInteger(value) || value < min) return badPage(name);
  }
  const found = await jobs.find(ref.id);
  // Another tenant's job is not found, as by its status (`CallOptions.tenant`).
  if (!found || !visibleTo(found.job, tenant)) return notFound();
  const results = await found.store.results.list(ref.id, skip, limit, { maxChars });
  return { success: true, documents: results.map((result) => result.document) };
}
