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

/** How far back from the token budget's end a cut may move to end at a line or sentence: a tenth of what is kept. */
const TIDY_SHARE = 0.1;

/**
 * The first `length` characters of `text`, ended where a line or a sentence ends (the later), else a word ends, when
 * one does in their last tenth; otherwise all of them. A token-budget slice ends wherever the budget runs out,
 * mid-line and mid-word.
 */
export function tidyCut(text: string, length: number): string {
  if (length >= text.length) return text;
  const floor = Math.floor(length * (1 - TIDY_SHARE));
  // One character past the cut: an end right at it counts.
  const tail = text.slice(floor, length + 1);
  let end = tail.lastIndexOf('\n');
  for (const sentence of tail.matchAll(/[.!?][)\]"'’”]*(?=\s)/g)) {
    end = Math.max(end, sentence.index + sentence[0].length);
  }
  if (end > 0) return text.slice(0, floor + end).trimEnd();
  for (let i = tail.length - 1; i > 0; i--) if (/\s/.test(tail[i]!)) return text.slice(0, floor + i);
  return text.slice(0, length);
}

/**
 * The sentence that says how much of the input the model was given, and what follows for the feature
 * (`consequence`, e.g. "fields found only later in the page may be missing").
 */
function reachSentence(sent: number, total: number, consequence: string | undefined): string {
  const share = Math.floor((sent / total) * 100);
  const count = (n: number) => n.toLocaleString('en-US');
  const percent = share < 1 ? 'less than 1%' : `${share}%`;
  const then = consequence ? `: ${consequence}` : '';
  return `The model was given the first ${count(sent)} of ${count(total)} characters (${percent})${then}.`;
}

/**
 * Trims the model input to at most `maxTokens` tokens, ending at a line, sentence or word end (`tidyCut`). Token
 * counts are estimates (the tokenizer of an arbitrary model is not known), which is why the default budget leaves
 * headroom below common context sizes. The warning is the reference's sentence followed by how much of the input was
 * sent and `consequence` (what a reader of the result may miss).
 */
export function trimToTokenBudget(text: string, maxTokens: number, consequence?: string): TrimmedInput {
  // Every token is at least one character: short input needs no estimate.
  if (text.length <= maxTokens) return { text };
  let tokens: number;
  try {
    tokens = estimateTokens(text);
  } catch {
    const cut = tidyCut(text, maxTokens * 3);
    return {
      text: cut,
      warning:
        `Failed to derive number of LLM tokens the extraction might use -- the input has been automatically trimmed ` +
        `to the maximum number of tokens (${maxTokens}) we support. ${reachSentence(cut.length, text.length, consequence)}`,
    };
  }
  if (tokens <= maxTokens) return { text };
  const head = text.slice(0, maxTokens * MAX_CHARS_PER_TOKEN);
  const cut = tidyCut(text, sliceByTokens(head, 0, maxTokens).length);
  return {
    text: cut,
    warning:
      `The extraction content would have used more tokens (${tokens}) than the maximum we allow (${maxTokens}). -- ` +
      `the input has been automatically trimmed. ${reachSentence(cut.length, text.length, consequence)}`,
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
