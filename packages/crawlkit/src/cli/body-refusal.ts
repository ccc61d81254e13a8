import { batchScrapeRequestSchema, crawlRequestSchema } from '../v2/jobs.js';
import { parseBody } from '../v2/parse.js';
import type { ErrorResponse } from '../v2/types.js';

const SCHEMAS = { crawl: crawlRequestSchema, batch: batchScrapeRequestSchema };

export type RefusedBodyKind = keyof typeof SCHEMAS;

/**
 * The engine's answer to a body its v2 schema refuses (the same parse, so the same message), told before the engine
 * opens a store: a command refused for its input leaves no `./.crawlkit` behind.
 */
export function bodyRefusal(kind: RefusedBodyKind, body: unknown): ErrorResponse | undefined {
  const parsed = parseBody(SCHEMAS[kind], body);
  return parsed.ok ? undefined : parsed.error;
}
