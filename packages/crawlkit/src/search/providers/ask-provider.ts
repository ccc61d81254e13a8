/** A provider's answer to one query, whoever wrote the provider. */
import { CrawlkitError, hasCrawlkitCode } from '../../errors.js';
import type { WebResult, WebSearchProvider, WebSearchQuery } from './provider.js';

/**
 * What `provider` answers to `query`. A failure without a crawlkit code (a provider of the user's throwing an error of
 * its own) and an answer that is no list are `SEARCH_PROVIDER_FAILED` naming the provider, as the built-in
 * providers' failures are; an entry without a string `url` is left out (no v2 result lacks one). An abort of the
 * query's signal passes as it is.
 */
export async function askProvider(provider: WebSearchProvider, query: WebSearchQuery): Promise<WebResult[]> {
  let answer: unknown;
  try {
    answer = await provider.search(query);
  } catch (error) {
    if (query.signal.aborted || hasCrawlkitCode(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new CrawlkitError('SEARCH_PROVIDER_FAILED', `The ${provider.name} search provider failed: ${reason}`, {
      cause: error,
    });
  }
  if (!Array.isArray(answer)) {
    throw new CrawlkitError(
      'SEARCH_PROVIDER_FAILED',
      `The ${provider.name} search provider answered ${answer === null ? 'null' : typeof answer}, not a list of ` +
        'results (`WebResult[]`).',
    );
  }
  return answer.filter(
    (entry): entry is WebResult =>
      typeof entry === 'object' && entry !== null && typeof (entry as { url?: unknown }).url === 'string',
  );
}
