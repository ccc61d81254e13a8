/**
 * Hybrid ranking with the user's own embedding model: the index's BM25 candidates and their cosine similarity to
 * the query, fused by reciprocal rank (k = 60), so neither score's scale matters.
 */
import type { SearchHit } from '@crawlkit/store';
import { cosineSimilarity, embedMany, type EmbeddingModel } from 'ai';

const K = 60;

export function hybridReranker(
  model: EmbeddingModel,
  query: string,
  signal: AbortSignal,
): (hits: SearchHit[]) => Promise<SearchHit[]> {
  return async (hits) => {
    const values = [query, ...hits.map((h) => `${h.title}\n${h.description}\n${h.snippet}`)];
    const { embeddings } = await embedMany({ model, values, abortSignal: signal });
    const [asked, ...pages] = embeddings;
    const similarity = pages.map((e, i) => ({ i, s: cosineSimilarity(asked!, e) }));
    const semanticRank = new Map(similarity.sort((a, b) => b.s - a.s).map((x, rank) => [x.i, rank]));
    return hits
      .map((hit, i) => ({ hit, fused: 1 / (K + i + 1) + 1 / (K + semanticRank.get(i)! + 1) }))
      .sort((a, b) => b.fused - a.fused)
      .map((x) => x.hit);
  };
}
