import { CrawlkitError } from '../errors.js';
import type { Format, JsonFormat } from '../v2/formats.js';
import type { ErrorResponse } from '../v2/types.js';

/**
 * The language-model features (json extraction, summaries, crawl prompts). Without a configured model, json
 * extraction is refused before any fetch and summaries fall back to an extractive summariser.
 */
export class LlmService {
  readonly configured: boolean;

  constructor(model?: unknown) {
    this.configured = model !== undefined;
  }

  /** Throws BAD_REQUEST when a format needs a model and none is configured. */
  assertAvailable(formats: readonly Format[]): void {
    if (this.configured) return;
    const needs = formats.find((f) => f.type === 'json' || (f.type === 'changeTracking' && f.modes.includes('json')));
    if (needs) {
      throw new CrawlkitError(
        'BAD_REQUEST',
        `The ${needs.type === 'json' ? 'json format' : 'changeTracking json mode'} needs a language model: ` +
          'pass one as `new Crawlkit({ llm })` (any AI SDK LanguageModel, e.g. a local OpenAI-compatible server).',
        { status: 400 },
      );
    }
  }

  /** The v2 error for a feature that needs a model when none is configured, else undefined. */
  requireModel(feature: string): ErrorResponse | undefined {
    if (this.configured) return undefined;
    return {
      success: false,
      code: 'BAD_REQUEST',
      error: `The ${feature} needs a language model: pass one as \`new Crawlkit({ llm })\`.`,
    };
  }

  /** A model-written summary, or undefined when no model is configured. */
  async summarize(_markdown: string, _signal: AbortSignal): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  async extractJson(
    _markdown: string,
    _format: JsonFormat,
    _signal: AbortSignal,
    _warnings: string[],
  ): Promise<unknown> {
    return Promise.reject(new CrawlkitError('LLM_NOT_CONFIGURED', 'No language model is configured.', { status: 400 }));
  }
}
