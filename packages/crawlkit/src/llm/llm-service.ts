import { isDeepStrictEqual } from 'node:util';

import PQueue from 'p-queue';

import { CrawlkitError } from '../errors.js';
import type { ErrorResponse } from '../v2/types.js';
import {
  checkPatterns,
  CRAWLER_OPTIONS_SCHEMA,
  pickGeneratedOptions,
  type GeneratedCrawlerOptions,
} from './crawl-options.js';
import {
  addUsage,
  emptyUsage,
  generateJson,
  generatePlainText,
  type GenerateJsonInput,
  type LlmUsage,
} from './generate.js';
import { stripReasoning } from './json-text.js';
import type { ResolvedLlmOptions } from './llm-options.js';
import {
  ANSWER_SYSTEM,
  answerPrompt,
  COMPARE_SYSTEM,
  comparePrompt,
  crawlOptionsPrompt,
  crawlOptionsSystem,
  extractionPrompt,
  extractionSystem,
  SUMMARY_SYSTEM,
  summaryPrompt,
} from './prompts.js';
import { prepareSchema, toJsonSchema } from './schema.js';
import { estimateTokens, fitContext, trimToTokenBudget } from './token-budget.js';
import { isObject } from '@crawlkit/options';

/** Told where a model task of a page is, for the message of its timeout: waiting for a slot, answering, done. */
export interface LlmProgress {
  queued(): void;
  running(): void;
  /** A call waits before its retry (a 429's `Retry-After`, a back-off after a 5xx). */
  retryWait?(waitMs: number, why: string): void;
  done(): void;
}

/** A model answer with the tokens it cost and any warnings for the document (e.g. trimmed input). */
export interface LlmResult<T> {
  value: T;
  usage: LlmUsage;
  warnings: string[];
}

export interface LlmExtractInput {
  /** The page's markdown; trimmed to the token budget. */
  markdown: string;
  /** A JSON Schema (or zod schema) the result must match; normalised per reference §3.2. */
  schema?: unknown;
  /** What to extract, in plain language. */
  prompt?: string;
  signal?: AbortSignal;
  /** Told the tokens of each model answer as it arrives: a task that fails after an answer still counts it. */
  onUsage?: (usage: LlmUsage) => void;
  progress?: LlmProgress;
}

export interface LlmCompareInput {
  previous: string;
  current: string;
  /** With a schema both versions are extracted and the differing top-level keys returned. */
  schema?: unknown;
  /** Without a schema: what to compare, in plain language. */
  prompt?: string;
  signal?: AbortSignal;
  /** Told the tokens of each model answer as it arrives (see `LlmExtractInput.onUsage`). */
  onUsage?: (usage: LlmUsage) => void;
  progress?: LlmProgress;
}

export interface LlmCrawlOptionsInput {
  url: string;
  prompt: string;
  /** URLs of the site (from a map of it), shown to the model as the site structure. */
  siteUrls?: readonly string[];
  signal?: AbortSignal;
}

const MISSING_MODEL =
  'pass one as `new Crawlkit({ llm })` (any AI SDK LanguageModel, e.g. a local OpenAI-compatible server), or ' +
  'give the crawlkit command (`serve`, `scrape`, `crawl`, ...) `--model` and `--model-base-url`, or set ' +
  'OPENAI_BASE_URL, OPENAI_API_KEY and MODEL_NAME (or OLLAMA_BASE_URL).';

/** The model tasks whose input is fitted to the context, each with its own instructions around the page. */
type Feature = 'summary' | 'answer' | 'extract' | 'compare';

/** What a result may miss when its input was cut, said after how much of the page the model was given. */
const TRIM_CONSEQUENCE: Record<Feature, string> = {
  summary: 'the summary covers that part only',
  answer: 'the answer is drawn from those passages only',
  extract: 'fields found only later in the page may be missing',
  compare: 'changes only later in the page may be missed',
};

/**
 * The language-model features: json extraction, summaries, change-tracking comparisons and crawl prompts. Without a
 * configured model, features that need one are refused before any fetch and summaries fall back to an extractive
 * summariser (in the scrape path).
 */
export class LlmService {
  readonly #options: ResolvedLlmOptions | undefined;
  readonly #slots: PQueue;
  /** Per feature, the input budget that fitted after the server refused a longer one (its instructions differ). */
  readonly #fitted = new Map<Feature, number>();

  constructor(options?: ResolvedLlmOptions) {
    this.#options = options;
    this.#slots = new PQueue({ concurrency: options?.concurrency ?? Infinity });
  }

  /** Runs one model task (with its repair round) in a slot: a local server with few slots is not flooded. */
  #slot<T>(fn: () => Promise<T>, signal: AbortSignal | undefined, progress?: LlmProgress): Promise<T> {
    if (!progress) return this.#slots.add(fn, signal ? { signal } : {});
    progress.queued();
    let started = false;
    const run = async () => {
      started = true;
      progress.running();
      return fn();
    };
    return this.#slots.add(run, signal ? { signal } : {}).finally(() => {
      if (!started) progress.running();
      progress.done();
    });
  }

  get configured(): boolean {
    return this.#options !== undefined;
  }

  /**
   * Throws `LLM_NOT_CONFIGURED` (HTTP 400) when no model is configured for `feature` (`'json format'`): a request
   * that needs one is refused before any fetch (`featureNeedingModel` names the feature of a request's formats).
   */
  assertModel(feature: string): void {
    if (this.#options) return;
    throw new CrawlkitError('LLM_NOT_CONFIGURED', `The ${feature} needs a language model: ${MISSING_MODEL}`);
  }

  /** The v2 error for a feature that needs a model when none is configured, else undefined. */
  requireModel(feature: string): ErrorResponse | undefined {
    if (this.#options) return undefined;
    const error = `The ${feature} needs a language model: ${MISSING_MODEL}`;
    return { success: false, code: 'LLM_NOT_CONFIGURED', error };
  }

  #model(feature: string): ResolvedLlmOptions {
    if (this.#options) return this.#options;
    throw new CrawlkitError('LLM_NOT_CONFIGURED', `The ${feature} needs a language model: ${MISSING_MODEL}`);
  }

  /** `markdown` cut to `maxTokens`; the cut's warning, with what the `feature`'s result may miss, to `warnings`. */
  #trim(markdown: string, maxTokens: number, warnings: string[], feature: Feature): string {
    const trimmed = trimToTokenBudget(markdown, maxTokens, TRIM_CONSEQUENCE[feature]);
    if (trimmed.warning) warnings.push(trimmed.warning);
    return trimmed.text;
  }

  /**
   * Runs `run` with its input trimmed to `maxInputTokens`, cut further when the server says it does not fit the
   * model's context (`fitContext`); the warnings of the attempt that worked (its trim) go to `warnings`. A cut that
   * fitted is kept for the feature's next calls, which start from it instead of being refused again first.
   */
  async #fit<T>(
    options: ResolvedLlmOptions,
    feature: Feature,
    texts: readonly string[],
    warnings: string[],
    run: (budget: number, notes: string[]) => Promise<T>,
  ): Promise<T> {
    const inputTokens = () => texts.reduce((sum, text) => sum + estimateTokens(text), 0);
    const budget = Math.min(options.maxInputTokens, this.#fitted.get(feature) ?? Infinity);
    const fitted = await fitContext(budget, inputTokens, run);
    if (fitted.budget < budget) this.#fitted.set(feature, fitted.budget);
    warnings.push(...fitted.warnings);
    return fitted.value;
  }

  #json(
    options: ResolvedLlmOptions,
    input: GenerateJsonInput,
    progress: LlmProgress | undefined,
  ): ReturnType<typeof generateJson> {
    const retrying = { onRetryWait: progress?.retryWait?.bind(progress) };
    return this.#slot(() => generateJson(options, { ...input, ...retrying }), input.signal, progress);
  }

  /** A model-written summary; `undefined` when no model is configured. */
  async summarize(
    markdown: string,
    signal?: AbortSignal,
    progress?: LlmProgress,
  ): Promise<LlmResult<string> | undefined> {
    const options = this.#options;
    if (!options) return undefined;
    const warnings: string[] = [];
    const { text, usage } = await this.#fit(options, 'summary', [markdown], warnings, (budget, notes) =>
      this.#slot(
        () =>
          generatePlainText(options, {
            instructions: SUMMARY_SYSTEM,
            prompt: summaryPrompt(this.#trim(markdown, budget, notes, 'summary')),
            ...(signal ? { signal } : {}),
            onRetryWait: progress?.retryWait?.bind(progress),
          }),
        signal,
        progress,
      ),
    );
    return { value: stripReasoning(text), usage, warnings };
  }

  /**
   * The answer to `question` written from `passages` of a page (the `question` and `query` formats): the model sees
   * those passages only, never the whole page.
   */
  async answer(
    question: string,
    passages: string,
    signal?: AbortSignal,
    progress?: LlmProgress,
  ): Promise<LlmResult<string>> {
    const options = this.#model('question format');
    const warnings: string[] = [];
    const { text, usage } = await this.#fit(options, 'answer', [passages], warnings, (budget, notes) =>
      this.#slot(
        () =>
          generatePlainText(options, {
            instructions: ANSWER_SYSTEM,
            prompt: answerPrompt(question, this.#trim(passages, budget, notes, 'answer')),
            ...(signal ? { signal } : {}),
            onRetryWait: progress?.retryWait?.bind(progress),
          }),
        signal,
        progress,
      ),
    );
    return { value: stripReasoning(text).trim(), usage, warnings };
  }

  /**
   * Structured data from a page: with a schema the answer validates against it (one repair round), with only a prompt
   * any JSON value is accepted. Throws `LLM_EXTRACTION_FAILED` / `LLM_REQUEST_FAILED` (CrawlkitError).
   */
  async extract(input: LlmExtractInput): Promise<LlmResult<unknown>> {
    const options = this.#model('json format');
    const warnings: string[] = [];
    const { value, usage } = await this.#fit(options, 'extract', [input.markdown], warnings, (budget, notes) =>
      this.#extractFrom(options, this.#trim(input.markdown, budget, notes, 'extract'), input),
    );
    return { value, usage, warnings };
  }

  async #extractFrom(
    options: ResolvedLlmOptions,
    page: string,
    input: Omit<LlmExtractInput, 'markdown'>,
  ): Promise<{ value: unknown; usage: LlmUsage }> {
    const { schema: schemaInput, prompt, signal, onUsage } = input;
    const prepared = schemaInput === undefined ? undefined : prepareSchema(toJsonSchema(schemaInput));
    const result = await this.#json(
      options,
      {
        instructions: extractionSystem(prepared?.schema),
        prompt: extractionPrompt(prompt, page),
        ...(prepared ? { schema: prepared.schema } : {}),
        // A model that answers the bare value instead of `{ value }` is taken at its word.
        ...(prepared?.wrapped ? { coerce: (v: unknown) => (isObject(v) && 'value' in v ? v : { value: v }) } : {}),
        ...(signal ? { signal } : {}),
        ...(onUsage ? { onUsage } : {}),
      },
      input.progress,
    );
    const value = prepared?.wrapped && isObject(result.value) ? result.value.value : result.value;
    return { value, usage: result.usage };
  }

  /**
   * Compares two versions of a page for change tracking's json mode (reference §11). With a schema both versions are
   * extracted and each differing top-level key maps to `{ previous, current }`; without one the model describes the
   * changes as a JSON object, guided by `prompt`.
   */
  async compare(input: LlmCompareInput): Promise<LlmResult<Record<string, unknown>>> {
    const options = this.#model('changeTracking json mode');
    const warnings: string[] = [];
    if (input.schema !== undefined) {
      const version = (markdown: string) =>
        this.#fit(options, 'extract', [markdown], warnings, (budget, notes) =>
          this.#extractFrom(options, this.#trim(markdown, budget, notes, 'extract'), input),
        );
      const [previous, current] = await Promise.all([version(input.previous), version(input.current)]);
      return {
        value: diffTopLevel(previous.value, current.value),
        usage: addUsage(addUsage(emptyUsage(), previous.usage), current.usage),
        warnings: [...new Set(warnings)],
      };
    }
    const result = await this.#fit(options, 'compare', [input.previous, input.current], warnings, (budget, notes) => {
      const half = Math.max(1, Math.floor(budget / 2));
      return this.#json(
        options,
        {
          instructions: COMPARE_SYSTEM,
          prompt: comparePrompt(
            input.prompt,
            this.#trim(input.previous, half, notes, 'compare'),
            this.#trim(input.current, half, notes, 'compare'),
          ),
          check: (value) => (isObject(value) ? undefined : 'the answer must be a JSON object'),
          ...(input.signal ? { signal: input.signal } : {}),
          ...(input.onUsage ? { onUsage: input.onUsage } : {}),
        },
        input.progress,
      );
    });
    return { value: result.value as Record<string, unknown>, usage: result.usage, warnings: [...new Set(warnings)] };
  }

  /** Crawler options from a crawl `prompt` (reference §13.5); unknown keys are dropped. */
  async crawlOptions(input: LlmCrawlOptionsInput): Promise<LlmResult<GeneratedCrawlerOptions>> {
    const options = this.#model('crawl prompt');
    const signal = input.signal
      ? AbortSignal.any([input.signal, AbortSignal.timeout(options.timeoutMs)])
      : AbortSignal.timeout(options.timeoutMs);
    const result = await this.#json(
      options,
      {
        instructions: crawlOptionsSystem(CRAWLER_OPTIONS_SCHEMA),
        prompt: crawlOptionsPrompt(input.url, input.prompt, (input.siteUrls ?? []).slice(0, options.promptMapLimit)),
        schema: CRAWLER_OPTIONS_SCHEMA,
        check: checkPatterns,
        signal,
      },
      undefined,
    );
    return { value: pickGeneratedOptions(result.value as Record<string, unknown>), usage: result.usage, warnings: [] };
  }

  /** How many site URLs to show the model for a crawl prompt. */
  get promptMapLimit(): number {
    return this.#options?.promptMapLimit ?? 0;
  }
}

/** Each top-level key whose value differs between two extractions, as `{ previous, current }`. */
export function diffTopLevel(previous: unknown, current: unknown): Record<string, unknown> {
  if (!isObject(previous) || !isObject(current)) {
    return isDeepStrictEqual(previous, current) ? {} : { value: { previous, current } };
  }
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(previous), ...Object.keys(current)])) {
    if (!isDeepStrictEqual(previous[key], current[key])) {
      out[key] = { previous: previous[key] ?? null, current: current[key] ?? null };
    }
  }
  return out;
}
