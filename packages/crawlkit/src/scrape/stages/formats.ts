import { redactUrl } from '@crawlkit/fetcher';

import { produceFormats } from '../../formats/registry.js';
import { unavailableOptionWarnings } from '../../formats/unavailable.js';
import type { DocumentMetadata } from '../../v2/types.js';
import { scrapeId } from '../../uuid-v7.js';
import { pushWarnings, type ExtractedState, type ScrapeStage, type ScrapeState } from '../scrape-state.js';

/** The document's metadata: the page's own (meta tags, title) and the engine's keys. */
function documentMetadata(state: ScrapeState): DocumentMetadata {
  const page = state.page!;
  const metadata: DocumentMetadata = {
    ...state.extraction!.metadata,
    // The document leaves crawlkit (responses, events, webhooks, files): user info in a URL never goes with it.
    sourceURL: redactUrl(state.context.sourceURL),
    url: redactUrl(page.url),
    statusCode: page.status,
    contentType: page.contentType,
    // The proxy this request went through: a cache hit went through none, whatever its copy was fetched with (a
    // stealth copy served to an `auto` request is no stealth scrape, and is not billed as one).
    proxyUsed: state.cache.state === 'hit' ? 'basic' : page.proxyUsed,
    scrapeId: scrapeId(),
    engine: page.engine,
  };
  if (page.engineReason) metadata.engineReason = page.engineReason;
  // The robots rules of the response's header, which search engines read as the page's robots meta tag (and the only
  // place a PDF or an image has them): a page kept out of an index by it showed nothing of that.
  const robotsHeader = page.headers['x-robots-tag'];
  if (robotsHeader) metadata.xRobotsTag = robotsHeader;
  const { state: cacheState } = state.cache;
  // A copy confirmed by a 304 is served from the cache: a hit in v2's terms (and billed as one).
  if (cacheState) metadata.cacheState = cacheState === 'revalidated' ? 'hit' : cacheState;
  if (cacheState === 'revalidated') metadata.revalidated = true;
  if (metadata.cacheState === 'hit' && state.cache.cachedAt !== undefined) {
    metadata.cachedAt = new Date(state.cache.cachedAt).toISOString();
  }
  return metadata;
}

/** Starts the document and lets each requested format produce its field (`formats/registry.ts`), in order. */
export const formatsStage: ScrapeStage = {
  name: 'formats',
  async run(state) {
    state.deadline.formats();
    state.document = { metadata: documentMetadata(state) };
    await produceFormats(state as ExtractedState);
    pushWarnings(state, unavailableOptionWarnings(state.request));
  },
};
