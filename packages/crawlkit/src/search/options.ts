/** `CrawlkitOptions.search`: the web search provider and the optional hybrid ranking. */
import type { EmbeddingModel } from 'ai';
import { isObject, membersLacking } from '@crawlkit/options';
import { z } from 'zod';

import { braveProvider } from './providers/brave.js';
import type { WebSearchProvider } from './providers/provider.js';
import { searxngProvider } from './providers/searxng.js';

export interface SearchOptions {
  /**
   * The web search provider that answers `sources: ['web' | 'news' | 'images']`: a SearXNG instance you run
   * (`{ kind: 'searxng', url }`), Brave Search (`{ kind: 'brave', apiKey }`), or your own `WebSearchProvider`.
   * @default undefined (`web` answers from the local index of stored pages; `news` and `images` are empty)
   */
  provider?: SearchProviderOptions | WebSearchProvider;
  /**
   * An AI SDK embedding model for hybrid ranking of local results: BM25's best candidates re-ranked by reciprocal rank
   * fusion with their cosine similarity to the query. Never required.
   * @default undefined (BM25 only)
   */
  embeddingModel?: EmbeddingModel;
}

/** A provider named by settings (`search.provider`, `searchProvider` in `crawlkit.config.json`). */
export const searchProviderSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('searxng'),
    /** The instance's base URL; its `search.formats` must list `json`. */
    url: z.url({ protocol: /^https?$/ }),
    /** SearXNG's `language` parameter. @default the instance's default */
    language: z.string().min(1).optional(),
    /** SearXNG's `engines` parameter (comma-separated). @default the instance's default engines */
    engines: z.string().min(1).optional(),
  }),
  z.strictObject({
    kind: z.literal('brave'),
    apiKey: z.string().min(1),
    /** @default https://api.search.brave.com/res/v1 */
    url: z.url().optional(),
  }),
]);

export type SearchProviderOptions = z.output<typeof searchProviderSchema>;

/** What a provider of the user's has: it names itself in warnings, says which sources it answers, and searches. */
const PROVIDER_MEMBERS = ['name', 'sources', 'search()'];
const FORMS = "Expected { kind: 'searxng', url }, { kind: 'brave', apiKey } or a WebSearchProvider";

/**
 * `provider`: settings with a `kind`, checked by their schema (a bad one named by its path), or a provider of the
 * user's, without one, checked for its members (a missing one named, not the `kind` it never meant to have).
 */
const providerSchema = z.union(
  [
    z.custom<z.input<typeof searchProviderSchema>>((v) => isObject(v) && 'kind' in v).pipe(searchProviderSchema),
    z.custom<WebSearchProvider>(
      (v) => isObject(v) && !('kind' in v) && membersLacking(v, PROVIDER_MEMBERS).length === 0,
    ),
  ],
  {
    error: (issue) => {
      const lacking = isObject(issue.input) ? membersLacking(issue.input, PROVIDER_MEMBERS) : [];
      return lacking.length > 0 ? `${FORMS} (name, sources, search()): ${lacking.join(', ')}` : FORMS;
    },
  },
);

export const searchOptionsSchema = z.strictObject({
  provider: providerSchema.optional(),
  // As `llm`'s model: an id string (the AI SDK's gateway) or a model object, which names its specification version.
  embeddingModel: z
    .custom<EmbeddingModel>((v) => typeof v === 'string' || (isObject(v) && 'specificationVersion' in v), {
      error: 'Expected an AI SDK EmbeddingModel (such as `openai.embedding(...)`)',
    })
    .optional(),
});

/** The provider the options name, or undefined. */
export function webProvider(options: SearchOptions['provider']): WebSearchProvider | undefined {
  if (!options) return undefined;
  if ('search' in options) return options;
  return options.kind === 'searxng' ? searxngProvider(options) : braveProvider(options);
}
