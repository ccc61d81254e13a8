import { parseOptions } from '@crawlkit/options';
import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';

import { searchOptionsSchema } from './options.js';
import type { WebSearchProvider } from './providers/provider.js';

/** The message `search` options are refused with. */
function refusal(search: unknown): string {
  try {
    parseOptions(searchOptionsSchema, search, 'search()');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the options were accepted');
}

const search = () => Promise.resolve([]);
const provider: WebSearchProvider = { name: 'mine', sources: ['web'], search };

describe('search.provider', () => {
  it('takes a provider of your own with name, sources and search(), and the settings of each kind', () => {
    expect(parseOptions(searchOptionsSchema, { provider }, 'search()').provider).toBe(provider);
    expect(parseOptions(searchOptionsSchema, { provider: { kind: 'brave', apiKey: 'k' } }, 'search()')).toEqual({
      provider: { kind: 'brave', apiKey: 'k' },
    });
  });

  it('names what a provider of your own lacks, not a `kind` it never meant to have', () => {
    expect(refusal({ provider: { name: 'mine', sources: ['web'], serach: search } })).toContain(
      "`provider`: Expected { kind: 'searxng', url }, { kind: 'brave', apiKey } or a WebSearchProvider (name, sources, search()): `search` is missing",
    );
    // Without `sources` every search failed with "Cannot read properties of undefined (reading 'includes')".
    expect(refusal({ provider: { name: 'mine', search } })).toContain('`sources` is missing');
    expect(refusal({ provider: { sources: ['web'], search } })).toContain('`name` is missing');
  });

  it("names what a kind's settings lack by its path", () => {
    expect(refusal({ provider: { kind: 'brave' } })).toContain('`provider.apiKey`');
    expect(refusal({ provider: { kind: 'bing' } })).toMatch(/`provider.kind`: .*'searxng' \| 'brave'/);
  });
});

describe('search.embeddingModel', () => {
  it('takes an AI SDK embedding model and refuses anything else, where 42 was taken', () => {
    const model = new MockEmbeddingModelV4({ doEmbed: () => Promise.resolve({ embeddings: [], warnings: [] }) });
    expect(parseOptions(searchOptionsSchema, { embeddingModel: model }, 'search()').embeddingModel).toBe(model);
    for (const embeddingModel of [42, {}]) {
      expect(refusal({ embeddingModel })).toContain('`embeddingModel`: Expected an AI SDK EmbeddingModel');
    }
  });
});
