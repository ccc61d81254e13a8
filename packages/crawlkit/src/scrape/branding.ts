import type { Action } from '@crawlkit/actions';
import {
  BRANDING_SCRIPT,
  buildBranding,
  type BrandingPersonality,
  type BrandingProfile,
  type BrandingSnapshot,
} from '@crawlkit/extractor';

import type { EngineContext } from '../context.js';
import { CrawlkitError } from '../errors.js';
import { addUsage, emptyUsage, type LlmUsage } from '../llm/generate.js';
import type { Format } from '../v2/formats.js';
import type { Document } from '../v2/types.js';
import type { FetchedContent } from './content.js';

// The collector runs as the last action of the page, so it sees the page after `waitFor` and the caller's actions.
// A failure inside it must not fail the scrape: it returns `{ error }` instead of throwing.
const COLLECT_SCRIPT = `(() => { try { return ${BRANDING_SCRIPT}; } catch (error) { return { __brandingError: String(error && error.message || error) }; } })()`;

/** What the collector action left in the fetched page: the snapshot, or why there is none. */
export type BrandingCapture = { snapshot: BrandingSnapshot } | { error: string };

const wantsBranding = (formats: readonly Format[]) => formats.some((f) => f.type === 'branding');

/** The page's actions with the branding collector appended. */
export function withBrandingAction(actions: readonly Action[] | undefined): Action[] {
  return [...(actions ?? []), { type: 'executeJavascript', script: COLLECT_SCRIPT }];
}

/**
 * Takes the collector's return value out of the fetched page's action results (so it is neither returned in
 * `actions.javascriptReturns` nor cached). Call once, right after the fetch, when branding was asked for.
 */
export function takeBrandingCapture(formats: readonly Format[], fetched: FetchedContent): BrandingCapture | undefined {
  if (!wantsBranding(formats)) return undefined;
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

const BROWSER_UNAVAILABLE = new Set(['BROWSER_NOT_FOUND', 'BROWSER_LAUNCH_FAILED']);

/**
 * A fetch failure of a branding scrape because no browser could be started becomes v2's
 * `SCRAPE_BRANDING_NOT_SUPPORTED`, keeping the fetcher's message (which says how to install Chromium); any other
 * error is returned as it is.
 */
export function brandingFetchError(formats: readonly Format[], error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (!wantsBranding(formats) || typeof code !== 'string' || !BROWSER_UNAVAILABLE.has(code)) return error;
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

export interface BrandingInput {
  capture: BrandingCapture | undefined;
  /** The page's markdown, for the model's personality judgement (when a model is configured). */
  markdown: string;
  document: Document;
  warnings: string[];
  signal: AbortSignal;
}

/**
 * The `branding` format (reference §12): measured in the rendered page by the collector action, turned into a
 * profile by `buildBranding`. With a configured language model, `personality` is added from the profile and the
 * page text; without one (or when the model fails) the profile has everything else.
 */
export async function brandingOf(ctx: EngineContext, input: BrandingInput): Promise<BrandingProfile | undefined> {
  const { capture, warnings } = input;
  if (!capture) return undefined;
  if ('error' in capture) {
    warnings.push(`Branding could not be measured: ${capture.error}.`);
    return undefined;
  }
  const profile = buildBranding(capture.snapshot);
  if (!ctx.llm.configured) return profile;
  try {
    // The markdown is only computed when a markdown-based format is asked for; the collector's text always is.
    const pageText = (input.markdown || capture.snapshot.text || '').slice(0, 6_000);
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
      signal: input.signal,
    });
    if (isPersonality(result.value)) profile.personality = result.value;
    const prior = input.document.metadata.llmUsage as LlmUsage | undefined;
    input.document.metadata.llmUsage = addUsage(addUsage(emptyUsage(), prior ?? emptyUsage()), result.usage);
  } catch (error) {
    if (input.signal.aborted) throw error;
    warnings.push('The language model could not judge the brand personality: branding has no `personality`.');
  }
  return profile;
}
