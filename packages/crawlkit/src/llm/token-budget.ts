import { estimateTokenCount, sliceByTokens } from 'tokenx';

import { CrawlkitError } from '../errors.js';

export interface TrimmedInput {
  text: string;
  /** The reference's warning (§19) when the input was trimmed. */
  warning?: string;
}

/**
 * Characters estimated in full; longer texts are estimated from a prefix of this size (the estimator is ~1 µs/char).
 */
const SAMPLE_CHARS = 64_000;
/** A token is rarely longer than this many characters, so this much text always holds the budget. */
const MAX_CHARS_PER_TOKEN = 8;

/** The estimated tokens of `text` (sampled past 64,000 characters). */
export function estimateTokens(text: string): number {
  if (text.length <= SAMPLE_CHARS) return estimateTokenCount(text);
  const sample = estimateTokenCount(text.slice(0, SAMPLE_CHARS));
  return Math.round((sample * text.length) / SAMPLE_CHARS);
}

/**
 * Trims the model input to at most `maxTokens` tokens. Token counts are estimates (the tokenizer of an arbitrary
 * model is not known), which is why the default budget leaves headroom below common context sizes.
 */
export function trimToTokenBudget(text: string, maxTokens: number): TrimmedInput {
  // Every token is at least one character: short input needs no estimate.
  if (text.length <= maxTokens) return { text };
  let tokens: number;
  try {
    tokens = estimateTokens(text);
  } catch {
    return {
      text: text.slice(0, maxTokens * 3),
      warning: `Failed to derive number of LLM tokens the extraction might use -- the input has been automatically trimmed to the maximum number of tokens (${maxTokens}) we support.`,
    };
  }
  if (tokens <= maxTokens) return { text };
  const head = text.slice(0, maxTokens * MAX_CHARS_PER_TOKEN);
  return {
    text: sliceByTokens(head, 0, maxTokens),
    warning: `The extraction content would have used more tokens (${tokens}) than the maximum we allow (${maxTokens}). -- the input has been automatically trimmed.`,
  };
}

/** The share of the server's stated room the input is cut to: token estimates are not the server's tokenizer. */
const FIT_MARGIN = 0.85;

/**
 * Runs `ask` with its input trimmed to `maxTokens`; when the server says the request did not fit the model's context
 * (`LLM_CONTEXT_EXCEEDED`), once more with the input cut by what the server said was too much (half of it when it did
 * not say). A page that cannot fit, or still does not, fails with `LLM_CONTEXT_EXCEEDED` saying what to change.
 * `inputTokens` estimates the untrimmed input (asked only after a refusal). Resolves the value, the warnings of the
 * attempt that worked (its trim), and the budget it used.
 */
export async function fitContext<T>(
  maxTokens: number,
  inputTokens: () => number,
  ask: (budget: number, warnings: string[]) => Promise<T>,
): Promise<{ value: T; warnings: string[]; budget: number }> {
  const warnings: string[] = [];
  let refusal: CrawlkitError;
  try {
    return { value: await ask(maxTokens, warnings), warnings, budget: maxTokens };
  } catch (error) {
    if (!isContextExceeded(error)) throw error;
    refusal = error;
  }
  const sent = Math.min(maxTokens, inputTokens());
  const { limit, requested } = (refusal.details ?? {}) as { limit?: number; requested?: number };
  const cut =
    limit !== undefined && requested !== undefined
      ? Math.floor((sent - (requested - limit)) * FIT_MARGIN)
      : Math.floor(sent / 2);
  if (cut < 1 || cut >= sent) throw cannotFit(refusal, maxTokens);
  const retried: string[] = [];
  try {
    return { value: await ask(cut, retried), warnings: retried, budget: cut };
  } catch (error) {
    throw isContextExceeded(error) ? cannotFit(error, maxTokens) : error;
  }
}

function isContextExceeded(error: unknown): error is CrawlkitError {
  return error instanceof CrawlkitError && error.code === 'LLM_CONTEXT_EXCEEDED';
}

function cannotFit(refusal: CrawlkitError, maxTokens: number): CrawlkitError {
  return new CrawlkitError(
    'LLM_CONTEXT_EXCEEDED',
    `${refusal.message.replace(/\.?$/, '.')} The page could not be cut to fit: lower \`llm.maxInputTokens\` (now ` +
      `${maxTokens}; the CLI: in crawlkit.config.json) to leave room for the instructions and the answer, or load the ` +
      'model with a longer context.',
    { cause: refusal, details: refusal.details },
  );
}
