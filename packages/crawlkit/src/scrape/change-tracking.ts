import type { EngineContext } from '../context.js';
import { addUsage, emptyUsage, type LlmUsage } from '../llm/generate.js';
import { findFormat } from '../v2/formats.js';
import type { ChangeTrackingResult, Document } from '../v2/types.js';
import type { PageScrapeContext, PageScrapeRequest } from './types.js';

export const ZDR_WARNING = 'Change tracking is not supported with zero data retention.';
export const LOOKUP_WARNING = 'Comparing failed, please try again later.';
export const JSON_DIFF_WARNING = 'Structured diff generation failed.';

/** What the history keeps of one scrape. */
interface Snapshot {
  markdown: string;
  statusCode: number;
}

export interface ChangeTrackingInput {
  request: PageScrapeRequest;
  context: PageScrapeContext;
  /** The page's markdown (computed whenever changeTracking is asked for). */
  markdown: string;
  statusCode: number;
  document: Document;
  warnings: string[];
  signal: AbortSignal;
}

const GONE = new Set([404, 410]);

function parseSnapshot(value: string): Snapshot | undefined {
  try {
    const parsed = JSON.parse(value) as Partial<Snapshot>;
    if (typeof parsed.markdown !== 'string') return undefined;
    return { markdown: parsed.markdown, statusCode: typeof parsed.statusCode === 'number' ? parsed.statusCode : 200 };
  } catch {
    return undefined;
  }
}

/**
 * The `changeTracking` format (reference §11), with the history in the engine's store: one history per normalised
 * `sourceURL` and `tag`. The page is `removed` when it answers 404 or 410, `new` when the history is empty, else
 * `same` or `changed` by `isSameText` (the text itself, whitespace and volatile fragments aside). `git-diff` adds a
 * unified diff of the markdown, `json` the model's structured comparison, both only when `changed`. Every scrape
 * is appended to the history, including a 404. Zero data retention keeps nothing and returns no result.
 */
export async function trackChanges(ctx: EngineContext, input: ChangeTrackingInput): Promise<void> {
  const format = findFormat(input.request.formats, 'changeTracking');
  if (!format) return;
  const { warnings, document } = input;
  if (input.context.zeroDataRetention) {
    warnings.push(ZDR_WARNING);
    return;
  }
  const url = ctx.normalizeUrl(input.context.sourceURL);
  const tag = format.tag ?? '';
  const current: Snapshot = { markdown: input.markdown, statusCode: input.statusCode };

  let previous: Snapshot | undefined;
  let previousAt: number | undefined;
  try {
    const entry = await ctx.store.history.latest(url, tag);
    if (entry) {
      previous = parseSnapshot(entry.value);
      previousAt = entry.scrapedAt;
    }
  } catch {
    warnings.push(LOOKUP_WARNING);
    return;
  }

  // The comparison and the diff run in a worker thread (two long markdowns can take a while).
  const compared =
    previous && !GONE.has(current.statusCode)
      ? await ctx.extraction.run(
          {
            kind: 'compare',
            previous: previous.markdown,
            current: current.markdown,
            gitDiff: format.modes.includes('git-diff'),
          },
          { signal: input.signal },
        )
      : undefined;
  const changeStatus: ChangeTrackingResult['changeStatus'] = GONE.has(current.statusCode)
    ? 'removed'
    : !compared
      ? 'new'
      : compared.same
        ? 'same'
        : 'changed';
  const result: ChangeTrackingResult = {
    previousScrapeAt: previousAt !== undefined ? new Date(previousAt).toISOString() : null,
    changeStatus,
    visibility: 'visible',
  };

  if (changeStatus === 'changed' && previous) {
    if (compared?.diff) result.diff = compared.diff;
    if (format.modes.includes('json')) {
      try {
        const compared = await ctx.llm.compare({
          previous: previous.markdown,
          current: current.markdown,
          ...(format.schema !== undefined ? { schema: format.schema } : {}),
          ...(format.prompt !== undefined ? { prompt: format.prompt } : {}),
          signal: input.signal,
        });
        result.json = compared.value;
        for (const warning of compared.warnings) if (!warnings.includes(warning)) warnings.push(warning);
        const prior = document.metadata.llmUsage as LlmUsage | undefined;
        document.metadata.llmUsage = addUsage(addUsage(emptyUsage(), prior ?? emptyUsage()), compared.usage);
      } catch (error) {
        if (input.signal.aborted) throw error;
        warnings.push(JSON_DIFF_WARNING);
      }
    }
  }

  try {
    await ctx.store.history.append({ url, tag, scrapedAt: Date.now(), value: JSON.stringify(current) });
  } catch {
    warnings.push('Change tracking could not save this scrape: the next one will compare with an older version.');
  }
  document.changeTracking = result;
}
