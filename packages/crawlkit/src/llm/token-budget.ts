import { estimateTokenCount, sliceByTokens } from 'tokenx';

export interface TrimmedInput {
  text: string;
  /** The reference's warning (§19) when the input was trimmed. */
  warning?: string;
}

/**
 * Trims the model input to at most `maxTokens` tokens. Token counts are estimates (the model's own tokenizer is not
 * known for an arbitrary model), which is why the default budget leaves headroom below common context sizes.
 */
export function trimToTokenBudget(text: string, maxTokens: number): TrimmedInput {
  let tokens: number;
  try {
    tokens = estimateTokenCount(text);
  } catch {
    const cut = text.slice(0, maxTokens * 3);
    return {
      text: cut,
      warning: `Failed to derive number of LLM tokens the extraction might use -- the input has been automatically trimmed to the maximum number of tokens (${maxTokens}) we support.`,
    };
  }
  if (tokens <= maxTokens) return { text };
  return {
    text: sliceByTokens(text, 0, maxTokens),
    warning: `The extraction content would have used more tokens (${tokens}) than the maximum we allow (${maxTokens}). -- the input has been automatically trimmed.`,
  };
}
