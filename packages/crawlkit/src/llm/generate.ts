import { stripVTControlCharacters } from 'node:util';

import type { APICallError, LanguageModelUsage, ModelMessage } from 'ai';

import { CrawlkitError } from '../errors.js';
import { aiSdk } from './ai-sdk.js';
import { parseModelJson, stripReasoning } from './json-text.js';
import { type RetryWaitListener, withRetries } from './retry.js';
import type { ResolvedLlmOptions } from './llm-options.js';
import { validateAgainst, type JsonSchema } from './schema.js';
import { estimateTokens } from './token-budget.js';

/** Tokens a model call reported (0 when the provider reports none). */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export const emptyUsage = (): LlmUsage => ({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

export function addUsage(into: LlmUsage, usage: LlmUsage): LlmUsage {
  into.inputTokens += usage.inputTokens;
  into.outputTokens += usage.outputTokens;
  into.totalTokens += usage.totalTokens;
  return into;
}

/**
 * The tokens of one call as the server counted them; a count the server did not give (some local servers send no
 * `usage`) is estimated from the text sent and answered, so the page and the engine's token usage do not read 0.
 */
function fromSdkUsage(usage: LanguageModelUsage | undefined, sent: () => string, answered: string): LlmUsage {
  const input = usage?.inputTokens ?? estimateTokens(sent());
  const output = usage?.outputTokens ?? estimateTokens(answered);
  const stated = usage?.inputTokens !== undefined && usage.outputTokens !== undefined;
  return { inputTokens: input, outputTokens: output, totalTokens: (stated && usage.totalTokens) || input + output };
}

/** How servers say a request is longer than the model's context (vLLM, OpenAI, llama.cpp, LM Studio, Ollama). */
const CONTEXT_EXCEEDED =
  /context length|context size|context window|maximum context|prompt is too long|too many tokens/i;
const CONTEXT_LIMIT = /(?:context length is|context size \(|context length of only|context window of)\s*(\d+)/i;
const CONTEXT_REQUESTED = /(?:requested|resulted in|request \(|keep the first)\s*(\d+)\s*tokens/i;

/** What a server said when the request did not fit the model's context. */
export interface ContextExceeded {
  message: string;
  /** The model's context in tokens, when the server said. */
  limit?: number;
  /** The tokens the request took, when the server said. */
  requested?: number;
}

function contextExceeded(error: unknown): ContextExceeded | undefined {
  const status = (error as { statusCode?: unknown }).statusCode;
  if (!(error instanceof Error) || (status !== 400 && status !== 413)) return undefined;
  const body = (error as { responseBody?: unknown }).responseBody;
  const said = `${error.message} ${typeof body === 'string' ? body : ''}`;
  if (!CONTEXT_EXCEEDED.test(said)) return undefined;
  const limit = Number(CONTEXT_LIMIT.exec(said)?.[1]);
  const requested = Number(CONTEXT_REQUESTED.exec(said)?.[1]);
  return {
    message: error.message,
    ...(limit > 0 ? { limit } : {}),
    ...(requested > 0 ? { requested } : {}),
  };
}

/**
 * Maps a failed model call to a crawlkit error: `LLM_CONTEXT_EXCEEDED` (details: `ContextExceeded`) when the input was
 * longer than the model's context, else `LLM_REQUEST_FAILED`. An abort is passed through so callers report their own
 * timeout.
 */
function requestFailed(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof CrawlkitError) return error;
  const context = contextExceeded(error);
  if (context) {
    return new CrawlkitError('LLM_CONTEXT_EXCEEDED', `The page does not fit the model's context: ${context.message}`, {
      cause: error,
      details: context,
    });
  }
  // One line of plain text: the AI Gateway's errors come with terminal colours and blank lines.
  const message = stripVTControlCharacters(error instanceof Error ? error.message : String(error))
    .replace(/\s+/g, ' ')
    .trim();
  return new CrawlkitError(
    'LLM_REQUEST_FAILED',
    `The language model request failed: ${answeredWith(error) ?? message}`,
    {
      cause: error,
    },
  );
}

const CHECK_BASE_URL =
  "check the model's base URL (`--model-base-url`, OPENAI_BASE_URL or the provider's `baseURL`): an OpenAI-compatible " +
  'API, which Ollama, llama.cpp, vLLM and LM Studio serve under `/v1`';

/**
 * What a server that is not (or not rightly addressed as) an OpenAI-compatible API answered, and what to check: a
 * 2xx body that is no chat completion (an HTML page, another API's JSON), a 404, a 401 or 403. The SDK says only
 * "Invalid JSON response" or "Not Found". Undefined for other errors, worded as the SDK words them.
 */
function answeredWith(error: unknown): string | undefined {
  const { statusCode, url, responseBody } = error as { statusCode?: unknown; url?: unknown; responseBody?: unknown };
  if (!(error instanceof Error) || typeof statusCode !== 'number' || typeof url !== 'string') return undefined;
  const server = `the server at ${url} answered ${statusCode}`;
  if (statusCode >= 200 && statusCode < 300) {
    const body = typeof responseBody === 'string' ? responseBody.replace(/\s+/g, ' ').trim() : '';
    const begins = body ? `, beginning "${body.length > 80 ? `${body.slice(0, 80)}…` : body}"` : '';
    return `${server} with a body that is not a chat completion${begins}: ${CHECK_BASE_URL}.`;
  }
  if (statusCode === 404) return `${server} (${error.message}): ${CHECK_BASE_URL}, and the model's name.`;
  if (statusCode === 401 || statusCode === 403) {
    return `${server} (${error.message}): check the model's API key (OPENAI_API_KEY, or the provider's \`apiKey\`).`;
  }
  return undefined;
}

function callSettings(options: ResolvedLlmOptions, signal: AbortSignal | undefined) {
  return {
    model: options.model,
    temperature: options.temperature,
    // `withRetries` retries, honouring Retry-After past the SDK's 60 s cap by not waiting for it.
    maxRetries: 0,
    ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
    ...(signal ? { abortSignal: signal } : {}),
  };
}

/** One plain-text answer. */
export async function generatePlainText(
  options: ResolvedLlmOptions,
  input: { instructions: string; prompt: string; signal?: AbortSignal; onRetryWait?: RetryWaitListener | undefined },
): Promise<{ text: string; usage: LlmUsage }> {
  const { APICallError, generateText } = await aiSdk();
  try {
    const result = await withRetries(
      () =>
        generateText({
          ...callSettings(options, input.signal),
          instructions: input.instructions,
          prompt: input.prompt,
        }),
      { maxRetries: options.maxRetries, signal: input.signal, APICallError, onRetryWait: input.onRetryWait },
    );
    const sent = () => `${input.instructions}\n${input.prompt}`;
    return { text: result.text, usage: fromSdkUsage(result.totalUsage, sent, result.text) };
  } catch (error) {
    throw requestFailed(error, input.signal);
  }
}

export interface GenerateJsonInput {
  instructions: string;
  prompt: string;
  /** Sent to the model as the response format and checked with ajv. */
  schema?: JsonSchema;
  /** Reshapes the parsed answer before it is checked (e.g. a bare value for a wrapped schema). */
  coerce?: (value: unknown) => unknown;
  /** A further check of the parsed value; returns what is wrong, or undefined. */
  check?: (value: unknown) => string | undefined;
  signal?: AbortSignal;
  /** Told each wait before a retry (see `withRetries`). */
  onRetryWait?: RetryWaitListener | undefined;
  /** Told the tokens of each answer as it arrives, so a task that fails later still counts what it spent. */
  onUsage?: (usage: LlmUsage) => void;
}

/** Models whose server refused a response format: asked without one from then on (the schema is in the prompt). */
const refusesResponseFormat = new WeakSet<object>();

/**
 * A 400 about the response format: LM Studio refuses `json_object`, older vLLM and llama.cpp builds `json_schema`,
 * some proxies both (`'format'`: the server takes none of that kind, remembered), or the server could not use this
 * schema (`'schema'`: this call only). The schema is in the instructions too, so the model can answer without one.
 */
function responseFormatRefusal(
  error: unknown,
  APICallError: { isInstance(e: unknown): e is APICallError },
): 'format' | 'schema' | undefined {
  if (!APICallError.isInstance(error) || error.statusCode !== 400) return undefined;
  const said = `${error.message} ${error.responseBody ?? ''}`;
  if (!/response_format|json_schema|json_object|structured output|guided_json|grammar/i.test(said)) return undefined;
  return /invalid schema|schema.*(?:invalid|is required|not allowed)/i.test(said) ? 'schema' : 'format';
}

async function answer(
  options: ResolvedLlmOptions,
  input: GenerateJsonInput,
  messages: ModelMessage[],
): Promise<{ text: string; usage: LlmUsage; finishReason?: string }> {
  const { APICallError, generateText, jsonSchema, NoObjectGeneratedError, Output } = await aiSdk();
  const model = typeof options.model === 'object' ? options.model : undefined;
  const sent = () =>
    [input.instructions, ...messages.map((m) => (typeof m.content === 'string' ? m.content : ''))].join('\n');
  const ask = (withFormat: boolean) =>
    withRetries(
      () =>
        generateText({
          ...callSettings(options, input.signal),
          instructions: input.instructions,
          messages,
          ...(withFormat
            ? { output: input.schema ? Output.object({ schema: jsonSchema(input.schema) }) : Output.json() }
            : {}),
        }),
      { maxRetries: options.maxRetries, signal: input.signal, APICallError, onRetryWait: input.onRetryWait },
    );
  try {
    let result;
    try {
      result = await ask(!(model && refusesResponseFormat.has(model)));
    } catch (error) {
      const refusal = responseFormatRefusal(error, APICallError);
      if (!refusal) throw error;
      if (model && refusal === 'format') refusesResponseFormat.add(model);
      result = await ask(false);
    }
    const usage = fromSdkUsage(result.totalUsage, sent, result.text);
    input.onUsage?.(usage);
    return { text: result.text, usage, finishReason: result.finishReason };
  } catch (error) {
    // The SDK parses strictly; a fenced or chatty answer is still read below, and a wrong one gets a repair round.
    if (NoObjectGeneratedError.isInstance(error)) {
      const usage = fromSdkUsage(error.usage, sent, error.text ?? '');
      input.onUsage?.(usage);
      return { text: error.text ?? '', usage, ...(error.finishReason ? { finishReason: error.finishReason } : {}) };
    }
    throw requestFailed(error, input.signal);
  }
}

/** What is wrong with an answer that holds no JSON, in words a user can act on. */
function notJson(answered: { text: string; finishReason?: string }): string {
  const said = stripReasoning(answered.text).replace(/\s+/g, ' ').trim();
  if (said === '') {
    const why =
      answered.finishReason && answered.finishReason !== 'stop' ? ` (finish reason: ${answered.finishReason})` : '';
    return `the answer is empty${why}`;
  }
  return `it is not valid JSON (it begins "${said.length > 80 ? `${said.slice(0, 80)}…` : said}")`;
}

async function problemWith(
  input: GenerateJsonInput,
  answered: { text: string; finishReason?: string },
): Promise<{ value: unknown; problem?: string }> {
  const read = parseModelJson(answered.text);
  if (!read) return { value: undefined, problem: notJson(answered) };
  const parsed = input.coerce ? { value: input.coerce(read.value) } : read;
  if (input.schema) {
    const verdict = await validateAgainst(input.schema, parsed.value);
    if (!verdict.valid) return { value: parsed.value, problem: `it does not match the JSON Schema: ${verdict.errors}` };
  }
  const extra = input.check?.(parsed.value);
  return extra ? { value: parsed.value, problem: extra } : { value: parsed.value };
}

/**
 * Asks the model for JSON, validates it, and on a parse or validation failure gives the model one repair round with
 * the errors. Throws `LLM_EXTRACTION_FAILED` when the second answer is still wrong.
 */
export async function generateJson(
  options: ResolvedLlmOptions,
  input: GenerateJsonInput,
): Promise<{ value: unknown; usage: LlmUsage; repaired: boolean }> {
  const messages: ModelMessage[] = [{ role: 'user', content: input.prompt }];
  const first = await answer(options, input, messages);
  const usage = addUsage(emptyUsage(), first.usage);
  const checked = await problemWith(input, first);
  if (checked.problem === undefined) return { value: checked.value, usage, repaired: false };
  // Cut at the output limit: a repair round would be cut the same way.
  if (first.finishReason === 'length') throw cutAtLimit(options, first.text, usage);

  messages.push(
    { role: 'assistant', content: first.text },
    {
      role: 'user',
      content: `That answer is not valid: ${checked.problem}. Reply with the corrected JSON only.`,
    },
  );
  const second = await answer(options, input, messages);
  addUsage(usage, second.usage);
  const rechecked = await problemWith(input, second);
  if (rechecked.problem === undefined) return { value: rechecked.value, usage, repaired: true };
  if (second.finishReason === 'length') throw cutAtLimit(options, second.text, usage);
  throw new CrawlkitError(
    'LLM_EXTRACTION_FAILED',
    `The language model's answer was not usable after one repair round: ${rechecked.problem}.`,
    { details: { problem: rechecked.problem, output: second.text.slice(0, 2000), usage } },
  );
}

function cutAtLimit(options: ResolvedLlmOptions, text: string, usage: LlmUsage): CrawlkitError {
  const now = options.maxOutputTokens ?? "unset: the model server's own limit";
  const problem = 'the answer was cut at the output limit before the JSON ended (finish reason: length)';
  return new CrawlkitError(
    'LLM_EXTRACTION_FAILED',
    `The language model's answer was not usable: ${problem}. Raise \`llm.maxOutputTokens\` (now ${now}; the CLI: ` +
      "in crawlkit.config.json) or the server's limit, or ask for less (a smaller schema, a narrower prompt).",
    { details: { problem, output: text.slice(0, 2000), usage } },
  );
}
