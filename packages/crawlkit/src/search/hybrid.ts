/**
 * Hybrid ranking with the user's own embedding model: each BM25 candidate's score, scaled to the best one's, and its
 * cosine similarity to the query, averaged. BM25 keeps the words' evidence; the model moves up a page that means
 * what was asked without repeating its words.
 */
import type { SearchHit } from '@crawlkit/store';
import type { EmbeddingModel } from 'ai';

import { aiSdk } from '../llm/ai-sdk.js';

/** The share of the cosine similarity in the fused score. */
const SEMANTIC_WEIGHT = 0.5;

export function hybridReranker(
  model: EmbeddingModel,
  query: string,
  signal: AbortSignal,
): (hits: SearchHit[]) => Promise<SearchHit[]> {
  return async (hits) => {
    const values = [query, ...hits.map((h) => `${h.title}\n${h.description}\n${h.snippet}`)];
    const { cosineSimilarity, embedMany } = await aiSdk();
    const { embeddings } = await embedMany({ model, values, abortSignal: signal });
    const [asked, ...pages] = embeddings;
    const best = Math.max(...hits.map((h) => h.score)) || 1;
    return hits
      .map((hit, i) => ({
        hit,
        fused: (1 - SEMANTIC_WEIGHT) * (hit.score / best) + SEMANTIC_WEIGHT * cosineSimilarity(asked!, pages[i]!),
      }))
      .sort((a, b) => b.fused - a.fused)
      .map((x) => x.hit);
  };
}
