import type { LanguageModel } from 'ai';
import { z } from 'zod';

import { InvalidOptionError, optionIssuesMessage, positiveInt, type Same } from '@crawlkit/options';

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
   * Retries of a failed model request (a lost connection, 408, 429, 5xx): after the server's `Retry-After`, else 2 s
   * doubling, within the page's timeout. A server asking to wait more than 60 s fails the call at once, saying so.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Time in milliseconds a crawl `prompt` may take to become crawler options (and a monitor's judge, a page). The model
   * calls of a scraped page run inside that page's `timeout` instead (the engine's `timeoutMs` when it sets none).
   * @default 120000
   */
  timeoutMs?: number;
  /**
   * Model tasks in flight at once across the engine (a json extraction with its repair round is one task); the rest
   * wait, and the wait is not counted against their page's `timeout` (the model's answer is). Use 1–2 for a local
   * server with few slots.
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

function isModel(value: unknown): value is LanguageModel {
  return typeof value === 'string' || (typeof value === 'object' && value !== null && 'specificationVersion' in value);
}

const modelSchema = z.custom<LanguageModel>(isModel, { error: 'Expected an AI SDK LanguageModel' });

const settingsSchema = z.strictObject({
  model: modelSchema,
  maxInputTokens: positiveInt.default(16_000),
  maxOutputTokens: positiveInt.optional(),
  temperature: z.number().default(0),
  maxRetries: z.number().int().nonnegative().default(2),
  timeoutMs: positiveInt.default(120_000),
  concurrency: positiveInt.default(4),
  promptMapLimit: positiveInt.default(50),
});
const _sameKeys: Same<keyof LlmOptions, keyof z.input<typeof settingsSchema>> = true;

/** `llm` of `CrawlkitOptions`: a bare model or `{ model, ...settings }`, checked and defaulted. */
const llmOptionsSchema = z.preprocess((value) => (isModel(value) ? { model: value } : value), settingsSchema);

/** The model settings of `crawlkit.config.json` (a server's address), which `new Crawlkit({ llm })` does not take. */
const CONFIG_FILE_KEYS = ['baseUrl', 'baseURL', 'apiKey'] as const;

/**
 * Refuses a server's address in `llm` (`baseUrl`, `apiKey`: crawlkit.config.json's `llm`, read by the commands),
 * telling how to make the AI SDK model it takes, rather than "check the spelling".
 */
function refuseServerAddress(input: unknown): void {
  if (typeof input !== 'object' || input === null || isModel(input)) return;
  const given = CONFIG_FILE_KEYS.filter((key) => key in input);
  if (given.length === 0) return;
  throw new InvalidOptionError(
    `Invalid options of new Crawlkit(): ${given.map((key) => `\`llm.${key}\``).join(', ')}: \`llm\` takes an AI SDK ` +
      "model, not a server's address (`baseUrl` and `apiKey` are settings of crawlkit.config.json, which the " +
      'commands read). For an OpenAI-compatible server: `llm: createOpenAICompatible({ name: "local", baseURL: ' +
      '"http://127.0.0.1:11434/v1", supportsStructuredOutputs: true }).chatModel("qwen3")` (npm i ' +
      '@ai-sdk/openai-compatible), or `{ model: thatModel, ...settings }`.',
  );
}

/**
 * Accepts a bare model or `{ model, ...settings }`.
 * @throws {InvalidOptionError} (a `TypeError` with code `INVALID_OPTION`) naming the bad setting.
 */
export function resolveLlmOptions(input: LanguageModel | LlmOptions | undefined): ResolvedLlmOptions | undefined {
  if (input === undefined) return undefined;
  refuseServerAddress(input);
  const result = llmOptionsSchema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ ...issue, path: ['llm', ...issue.path] }));
  throw new InvalidOptionError(optionIssuesMessage('new Crawlkit()', { llm: input }, issues), { details: issues });
}
