import { redactUrl } from '@crawlkit/fetcher';
import { z } from 'zod';

import { pageGone, scrapeReadsGone } from '../scrape/page-status.js';
import { addModelUsage, pushWarnings, type ExtractedState } from '../scrape/scrape-state.js';
import type { ChangeTrackingResult } from '../v2/types.js';
import { snapshotCodec } from '../codec/records.js';
import { defineFormat } from './format-module.js';
import { jsonSchemaObject } from './json.js';
import { snapshotSource, type SnapshotSource } from './snapshot-source.js';
import { scrapeExtractionSettings } from '../scrape/extraction-settings.js';

const ZDR_WARNING = 'Change tracking is not supported with zero data retention.';
export const LOOKUP_WARNING = 'Comparing failed, please try again later.';
export const JSON_DIFF_WARNING = 'Structured diff generation failed.';

/** What the history keeps of one scrape. */
interface Snapshot {
  markdown: string;
  statusCode: number;
  /** What the markdown was made from; absent on snapshots of a crawlkit before the rule. */
  source?: SnapshotSource;
}

/**
 * Whether two snapshots were made from the same page with the same options, so that their markdowns can differ only
 * by the extractor that made them: false when either has no source (a crawlkit before the rule).
 */
function sameSource(previous: Snapshot, current: Snapshot): boolean {
  return (
    previous.source !== undefined &&
    current.source !== undefined &&
    previous.statusCode === current.statusCode &&
    previous.source.page === current.source.page &&
    previous.source.options === current.source.options
  );
}

/** The snapshot of a history entry, or `undefined` when it cannot be read (the page then counts as new). */
function readSnapshot(value: string): Snapshot | undefined {
  try {
    return snapshotCodec.decode(value);
  } catch {
    return undefined;
  }
}

const changeTrackingSchema = z.strictObject({
  type: z.literal('changeTracking'),
  modes: z.array(z.enum(['git-diff', 'json'])).default([]),
  schema: jsonSchemaObject.optional(),
  prompt: z.string().max(10_000).optional(),
  tag: z.string().nullable().default(null),
});

type ChangeTrackingFormat = z.output<typeof changeTrackingSchema>;

/**
 * The `changeTracking` format (reference §11), with the history in the engine's store: one history per normalised
 * `sourceURL` and `tag`. The page is `removed` when it answers 404 or 410, `new` when the history is empty, `same`
 * when the page as fetched and the options that shape its markdown are those of the last version kept (whatever the
 * markdowns say: after an upgrade they differ by the extractor alone), else `same` or `changed` by `isSameText` (the
 * text itself, whitespace and volatile fragments aside). `git-diff` adds a
 * unified diff of the markdown, `json` the model's structured comparison, both only when `changed`. Every scrape
 * is appended to the history, including a 404; not another error answer (a 500, a 403, a 429 the retries did not
 * pass), which says nothing of the page: it gets no result but a warning, and the next scrape is compared with the
 * last version kept. Zero data retention keeps nothing and returns no result. It needs a
 * fresh page: a cached copy answers only once the site confirms it (a `304` to a conditional refetch), never by its
 * age alone; in `json` mode it needs a model (5 credits).
 */
export const changeTrackingFormat = defineFormat({
  type: 'changeTracking',
  schema: changeTrackingSchema,
  extraction: () => ({ markdown: true }),
  needsModel: (format) => (format.modes.includes('json') ? 'changeTracking json mode' : undefined),
  zeroDataRetentionWarning: () => ZDR_WARNING,
  cacheReadable: () => false,
  cacheRevalidatable: () => true,
  credits: (format) => (format.modes.includes('json') ? { base: 5 } : {}),
  produce: (format, state) => trackChanges(format, state),
});

/** The last version kept could not be read: the page is compared with nothing, and this version kept from now on. */
const UNREADABLE_WARNING =
  'The last version kept for change tracking could not be read (damaged, or written by a newer crawlkit): the page ' +
  'was compared with nothing and reads new; this version is kept for the next scrape.';

async function trackChanges(format: ChangeTrackingFormat, state: ExtractedState): Promise<void> {
  const { ctx, warnings, document } = state;
  // An error answer but the page's removal is not the page: compared, a 500 was `changed` with a diff against the
  // error page, and the page back the next day `changed` again, against the error page kept as its last version. A
  // 429/503 a job asks again for is one: the retry is compared with the page's last real scrape.
  const { status } = state.page;
  if (status >= 400 && !pageGone(status)) {
    warnings.push(
      // the warning's first words name the status (`errorPageNote`)
      'An error answer says nothing of the page: it was not compared, nor kept for change tracking. The next ' +
        'scrape is compared with the last version kept.',
    );
    return;
  }
  const url = ctx.normalizeUrl(state.context.sourceURL);
  const tag = format.tag ?? '';
  const current: Snapshot = {
    markdown: state.extraction.markdown ?? '',
    statusCode: state.page.status,
    source: snapshotSource(state.input, scrapeExtractionSettings(state)),
  };
  let previous: Snapshot | undefined;
  let previousAt: number | undefined;
  try {
    const entry = await ctx.store.history.latest(url, tag);
    if (entry) {
      previous = readSnapshot(entry.value);
      if (previous) previousAt = entry.scrapedAt;
      else warnings.push(UNREADABLE_WARNING);
    }
  } catch {
    warnings.push(LOOKUP_WARNING);
    return;
  }

  // The same page and options as the last version kept: a markdown that differs is the extractor's (an upgrade), not
  // the page's. The page is `same`, and this version kept, so the next real change diffs against today's extractor.
  const gone = scrapeReadsGone(current.statusCode, state.softNotFound);
  const unchangedSource = previous !== undefined && !gone && sameSource(previous, current);
  if (unchangedSource) state.sourceUnchanged = true;
  // The comparison and the diff run in a worker thread (two long markdowns can take a while).
  const compared =
    previous && !gone && !unchangedSource
      ? await ctx.extraction.run(
          {
            kind: 'compare',
            previous: previous.markdown,
            current: current.markdown,
            gitDiff: format.modes.includes('git-diff'),
          },
          { signal: state.signal },
        )
      : undefined;
  const changeStatus: ChangeTrackingResult['changeStatus'] = gone
    ? 'removed'
    : unchangedSource
      ? 'same'
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
    const moved = redirectNote(state, url);
    if (moved) warnings.push(moved);
    if (compared?.diff) result.diff = compared.diff;
    if (format.modes.includes('json')) {
      try {
        const compared = await ctx.llm.compare({
          previous: previous.markdown,
          current: current.markdown,
          ...(format.schema !== undefined ? { schema: format.schema } : {}),
          ...(format.prompt !== undefined ? { prompt: format.prompt } : {}),
          signal: state.signal,
          onUsage: (usage) => addModelUsage(state, usage),
          progress: state.deadline.modelTask(),
        });
        result.json = compared.value;
        pushWarnings(state, compared.warnings);
      } catch (error) {
        if (state.signal.aborted) throw error;
        warnings.push(JSON_DIFF_WARNING);
      }
    }
  }

  try {
    await ctx.store.history.append({ url, tag, scrapedAt: Date.now(), value: snapshotCodec.encode(current) });
  } catch {
    warnings.push('Change tracking could not save this scrape: the next one will compare with an older version.');
  }
  document.changeTracking = result;
}

/**
 * A page compared under the address asked for but read at another: a job posting closed and sent to its listing
 * read `changed`, its diff the posting against the listing, without a word of the redirect.
 */
function redirectNote(state: ExtractedState, key: string): string | undefined {
  const final = state.page.url;
  if (state.ctx.normalizeUrl(final) === key) return undefined;
  return (
    `The page redirected to ${redactUrl(final)}: change tracking compared that page with the last version kept for ` +
    `${redactUrl(state.context.sourceURL)}. If that address did not redirect before, its page is no longer there ` +
    '(a closed job posting sent to its listing, a page moved).'
  );
}
