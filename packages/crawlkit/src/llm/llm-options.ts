import type { LanguageModel } from 'ai';

/** Settings of the language model used for `json`, `summary`, change tracking json mode and crawl `prompt`. */
export interface LlmOptions {
  /** Any Vercel AI SDK language model: OpenAI, Anthropic, or a local OpenAI-compatible server (llama.cpp, Ollama). */
  model: LanguageModel;
  /**
   * Most tokens of page markdown sent to the model per call (estimated); longer pages are trimmed with a warning.
   * @default 16000
   */
  maxInputTokens?: number;
  /**
   * Most tokens the model may write per call (unset: the model's own limit).
   * @default undefined
   */
  maxOutputTokens?: number;
  /**
   * Sampling temperature; 0 makes extraction as repeatable as the model allows.
   * @default 0
   */
  temperature?: number;
  /**
   * Retries of a failed model request (network errors, 429, 5xx), by the AI SDK with backoff.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Time in milliseconds the model calls of one page may take when the scrape request sets no `timeout` (with a
   * `timeout`, the model calls share it, as in v2).
   * @default 120000
   */
  timeoutMs?: number;
  /**
   * Model tasks in flight at once across the engine (a json extraction with its repair round is one task); the rest
   * wait, inside their page's timeout. Use 1–2 for a local server with few slots.
   * @default 4
   */
  concurrency?: number;
  /**
   * Most URLs of the site (from a map of it) shown to the model when it turns a crawl `prompt` into options.
   * @default 50
   */
  promptMapLimit?: number;
}

export interface ResolvedLlmOptions {
  model: LanguageModel;
  maxInputTokens: number;
  maxOutputTokens?: number;
  temperature: number;
  maxRetries: number;
  timeoutMs: number;
  concurrency: number;
  promptMapLimit: number;
}

function isModel(value: LanguageModel | LlmOptions): value is LanguageModel {
  return typeof value === 'string' || 'specificationVersion' in value;
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new TypeError(`Expected \`llm.${name}\` to be a positive integer, got \`${String(value)}\``);
  }
  return value;
}

/** Accepts a bare model or `{ model, ...settings }`. */
export function resolveLlmOptions(input: LanguageModel | LlmOptions | undefined): ResolvedLlmOptions | undefined {
  if (input === undefined) return undefined;
  const options: LlmOptions = isModel(input) ? { model: input } : input;
  if (options.model === undefined || options.model === null) {
    throw new TypeError('Expected `llm.model` to be an AI SDK LanguageModel');
  }
  const resolved: ResolvedLlmOptions = {
    model: options.model,
    maxInputTokens: positiveInt('maxInputTokens', options.maxInputTokens, 16_000),
    temperature: options.temperature ?? 0,
    maxRetries: options.maxRetries ?? 2,
    timeoutMs: positiveInt('timeoutMs', options.timeoutMs, 120_000),
    concurrency: positiveInt('concurrency', options.concurrency, 4),
    promptMapLimit: positiveInt('promptMapLimit', options.promptMapLimit, 50),
  };
  if (options.maxOutputTokens !== undefined) {
    resolved.maxOutputTokens = positiveInt('maxOutputTokens', options.maxOutputTokens, 0);
  }
  if (!Number.isInteger(resolved.maxRetries) || resolved.maxRetries < 0) {
    throw new TypeError(
      `Expected \`llm.maxRetries\` to be a non-negative integer, got \`${String(resolved.maxRetries)}\``,
    );
  }
  return resolved;
}
