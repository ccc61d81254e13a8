import { isPageWarning } from '@crawlkit/extractor/page-warnings';

import { canonicalFoldHash } from '../../changes/content-hash.js';
import { extractionContentHash } from '../../changes/main-content-hash.js';
import { formatCredits } from '../../formats/registry.js';
import type { Format } from '../../v2/formats.js';
import type { ActionResults } from '../../v2/types.js';
import { errorPageWarning, joinWarnings, type DocumentWarning } from '../error-page.js';
import type { PageScrapeOutcome } from '../types.js';
import type { ExtractedState } from '../scrape-state.js';

function nonEmptyActions(actions: ActionResults | undefined): ActionResults | undefined {
  if (!actions) return undefined;
  const kept = Object.entries(actions).filter(([, v]) => Array.isArray(v) && v.length > 0);
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/**
 * Credits of one successful document (reference §18): 1 per page, or its formats' base (5 with a `json`
 * extraction) plus their surcharges; the stealth proxy adds 4, and so does `lockdown`; a parsed PDF adds 1 per page
 * after the first; zero data retention adds 1. Nothing is charged: this is accounting for callers who budget.
 */
export function documentCredits(input: CreditInput): number {
  let credits = formatCredits(input.formats);
  if (input.proxyUsed === 'stealth') credits += 4;
  if (input.lockdown) credits += 4;
  const pdfPages = input.pdfPagesParsed;
  if (pdfPages !== undefined && pdfPages > 1) credits += pdfPages - 1;
  if (input.zeroDataRetention) credits += 1;
  return credits;
}

/** What a document's credits depend on. */
export interface CreditInput {
  formats: readonly Format[];
  proxyUsed: 'basic' | 'stealth';
  /** Served by `lockdown` (upstream bills 4 more). */
  lockdown?: boolean | undefined;
  /** Pages parsed from a PDF (absent for other content or when PDF parsing is off). */
  pdfPagesParsed?: number | undefined;
  zeroDataRetention: boolean;
}

/**
 * The page's outcome: the document with its action results, warnings, model usage and credits, and what a job reads
 * beside it (the page's links for discovery, its canonical URL, `Retry-After`, what it showed about its engine).
 */
export function respond(state: ExtractedState): PageScrapeOutcome {
  const { document, extraction, page } = state;
  const actions = nonEmptyActions(page.actions);
  if (actions) document.actions = actions;
  const errorPage = errorPageWarning(page.status);
  // an error page is seldom an article: after its status, "No main content was found" is noise
  const notes: readonly DocumentWarning[] = errorPage
    ? [errorPage, ...state.warnings.filter((w) => !isPageWarning(w, 'NO_MAIN_CONTENT'))]
    : state.warnings;
  const warning = joinWarnings(notes);
  if (warning !== undefined) document.warning = warning;
  if (state.llmUsage) document.metadata.llmUsage = state.llmUsage;
  const credits = documentCredits({
    formats: state.request.formats,
    proxyUsed: document.metadata.proxyUsed ?? page.proxyUsed,
    pdfPagesParsed: extraction.pdfPages,
    lockdown: state.request.lockdown,
    zeroDataRetention: state.context.zeroDataRetention,
  });
  document.metadata.creditsUsed = credits;
  const outcome: PageScrapeOutcome = { success: true, document, credits };
  if (notes.length) outcome.warnings = notes;
  if (extraction.discoveredLinks) outcome.links = extraction.discoveredLinks;
  if (extraction.canonical) outcome.canonical = extraction.canonical;
  // An empty main content tells nothing of the page (a client-rendered one read without a browser): no hash.
  if (state.context.hashContent && extraction.markdown !== undefined && /\S/.test(extraction.markdown)) {
    outcome.contentHash = extractionContentHash(extraction, state.contentHash);
    const fold = extraction.foldHash ?? canonicalFoldHash(extraction.markdown, extraction.canonical);
    if (fold !== undefined) outcome.foldHash = fold;
  }
  const retryAfter = page.headers['retry-after'];
  if (retryAfter !== undefined) outcome.retryAfter = retryAfter;
  if (state.engineEvidence) outcome.engineEvidence = state.engineEvidence;
  if (state.searchText) outcome.search = state.searchText;
  return outcome;
}
