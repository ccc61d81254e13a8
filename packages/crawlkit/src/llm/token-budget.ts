import { estimateTokenCount, sliceByTokens } from 'tokenx';

export interface TrimmedInput {
  text: string;
  /** The reference's warning (§19) when the input was trimmed. */
  warning?: string;
}

/** Characters estimated in full; longer texts are estimated from a prefix of this size (the estimator is ~1 µs/char). */
const SAMPLE_CHARS = 64_000;
/** A token is rarely longer than this many characters, so this much text always holds the budget. */
const MAX_CHARS_PER_TOKEN = 8;

function estimateTokens(text: string): number {
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
