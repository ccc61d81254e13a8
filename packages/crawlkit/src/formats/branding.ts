import type { Action } from '@crawlkit/actions';
import type { BrandingPersonality, BrandingProfile, BrandingSnapshot } from '@crawlkit/extractor';
import { BRANDING_SCRIPT } from '@crawlkit/extractor/branding-script';
import { lazyModule } from '@crawlkit/options/lazy-module';

import { z } from 'zod';

import { CrawlkitError } from '../errors.js';
import { addModelUsage, mayAskModel, type ExtractedState, type FetchedState } from '../scrape/scrape-state.js';
import { defineFormat } from './format-module.js';

/** The extractor's branding reader, loaded on the main thread by the first `branding` format (a browser scrape). */
const extractor = lazyModule(() => import('@crawlkit/extractor'));

// The collector runs as the last action of the page, so it sees the page after `waitFor` and the caller's actions.
// A failure inside it must not fail the scrape: it returns `{ error }` instead of throwing.
const COLLECT_SCRIPT = `(() => { try { return ${BRANDING_SCRIPT}; } catch (error) { return { __brandingError: String(error && error.message || error) }; } })()`;

/** What the collector action left in the fetched page: the snapshot, or why there is none. */
export type BrandingCapture = { snapshot: BrandingSnapshot } | { error: string };

/** The page's actions with the branding collector appended. */
function withBrandingAction(actions: readonly Action[] | undefined): Action[] {
  return [...(actions ?? []), { type: 'executeJavascript', script: COLLECT_SCRIPT }];
}

/**
 * Takes the collector's return value out of the fetched page's action results (so it is neither returned in
 * `actions.javascriptReturns` nor cached): once, right after the fetch.
 */
function takeBrandingCapture(state: FetchedState): BrandingCapture {
  const fetched = state.page;
  const returns = fetched.actions?.javascriptReturns;
  const last = returns?.pop();
  if (!last) {
    return { error: `the page was not rendered as HTML (${fetched.contentType || 'unknown content type'})` };
  }
  const value = last.value as Record<string, unknown> | null;
  if (!value || typeof value !== 'object') return { error: 'the collector returned nothing' };
  if (typeof value.__brandingError === 'string') return { error: value.__brandingError };
  return { snapshot: value as unknown as BrandingSnapshot };
}

const BROWSER_UNAVAILABLE = new Set(['BROWSER_NOT_FOUND', 'BROWSER_LAUNCH_FAILED', 'BROWSER_CONNECT_FAILED']);

/**
 * A fetch failure of a branding scrape because no browser could be started becomes v2's
 * `SCRAPE_BRANDING_NOT_SUPPORTED`, keeping the fetcher's message (which says how to install Chromium); any other
 * error is returned as it is.
 */
function brandingFetchError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !BROWSER_UNAVAILABLE.has(code)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CrawlkitError('SCRAPE_BRANDING_NOT_SUPPORTED', `Branding extraction requires a browser. ${message}`, {
    cause: error,
  });
}

const PERSONALITY_SCHEMA = {
  type: 'object',
  properties: {
    tone: { type: 'string', enum: ['professional', 'playful', 'modern', 'traditional', 'minimalist', 'bold'] },
    energy: { type: 'string', enum: ['low', 'medium', 'high'] },
    targetAudience: { type: 'string', description: 'Who the site speaks to, in a few words.' },
  },
  required: ['tone', 'energy', 'targetAudience'],
};

const PERSONALITY_PROMPT =
  "Judge the brand's personality from the measured design tokens and the page text: tone, energy and target " +
  'audience. Answer with the schema only.';

function isPersonality(value: unknown): value is BrandingPersonality {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.tone === 'string' && typeof v.energy === 'string' && typeof v.targetAudience === 'string';
}

/**
 * The `branding` format (reference §12): measured in the rendered page by a collector action (so it always takes
 * the browser and a fresh page), turned into a profile by `buildBranding`. With a configured language model,
 * `personality` is added from the profile and the page text; without one (or under zero data retention, or when the
 * model fails) the profile has everything else.
 */
export const brandingFormat = defineFormat({
  type: 'branding',
  schema: z.strictObject({ type: z.literal('branding') }),
  shapeFetch: (_format, request) => {
    request.engine = 'browser';
    // The logo candidates are measured on the rendered page: an image never loaded has no size.
    request.loadImages = true;
    request.actions = withBrandingAction(request.actions);
  },
  fetchError: (_format, error) => brandingFetchError(error),
  afterFetch: (_format, state) => {
    state.captures.branding = takeBrandingCapture(state);
  },
  cacheReadable: () => false,
  produce: async (_format, state) => {
    const capture = state.captures.branding;
    if (!capture) return;
    const profile = await brandingOf(state, capture);
    if (profile) state.document.branding = profile;
  },
});

async function brandingOf(state: ExtractedState, capture: BrandingCapture): Promise<BrandingProfile | undefined> {
  const { ctx, warnings } = state;
  if ('error' in capture) {
    warnings.push(`Branding could not be measured: ${capture.error}.`);
    return undefined;
  }
  const profile = (await extractor()).buildBranding(capture.snapshot);
  if (!mayAskModel(state)) return profile;
  try {
    // The markdown is only computed when a markdown-based format is asked for; the collector's text always is.
    const pageText = (state.extraction.markdown || capture.snapshot.text || '').slice(0, 6_000);
    const tokens = {
      brandName: profile.brandName,
      colorScheme: profile.colorScheme,
      colors: profile.colors,
      fonts: profile.fonts?.slice(0, 4),
      borderRadius: profile.spacing?.borderRadius,
    };
    const result = await ctx.llm.extract({
      markdown: `Design tokens measured on the page:\n\n${JSON.stringify(tokens, null, 2)}\n\nPage text:\n\n${pageText}`,
      schema: PERSONALITY_SCHEMA,
      prompt: PERSONALITY_PROMPT,
      signal: state.signal,
      onUsage: (usage) => addModelUsage(state, usage),
      progress: state.deadline.modelTask(),
    });
    if (isPersonality(result.value)) profile.personality = result.value;
  } catch (error) {
    if (state.signal.aborted) throw error;
    warnings.push('The language model could not judge the brand personality: branding has no `personality`.');
  }
  return profile;
}
