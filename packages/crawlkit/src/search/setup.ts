import type { SearchHit } from '@crawlkit/store';
import type { EmbeddingModel } from 'ai';

import { hybridModule } from '../lazy-features.js';
import type { WebSearchProvider } from './providers/provider.js';

/** What a search needs beside the runtime: the web provider and the embedding model, when configured. */
export interface SearchSetup {
  provider: WebSearchProvider | undefined;
  rerank?: (query: string, signal: AbortSignal) => (hits: SearchHit[]) => Promise<SearchHit[]>;
}

/** An engine's search setup, made with the engine: the search's own modules load with its first search. */
export function searchSetup(provider: WebSearchProvider | undefined, model: EmbeddingModel | undefined): SearchSetup {
  const setup: SearchSetup = { provider };
  if (model) {
    setup.rerank = (query, signal) => async (hits) => (await hybridModule()).hybridReranker(model, query, signal)(hits);
  }
  return setup;
}
