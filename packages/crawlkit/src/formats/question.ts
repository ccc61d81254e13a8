/**
 * The `question` format and the older `query` (2026): an answer written by the model from the page's passages that
 * best match the question (`highlights`), never from the whole page. `query` in `directQuote` mode answers with
 * those passages verbatim, with no model.
 */
import { z } from 'zod';

import type { LlmUsage } from '../llm/generate.js';
import type { LlmProgress, LlmService } from '../llm/llm-service.js';
import { addModelUsage, pushWarnings, type ExtractedState } from '../scrape/scrape-state.js';
import { defineFormat } from './format-module.js';
import { ANSWER_SURCHARGE, highlights, highlightsText } from './highlights.js';

export interface Answer {
  answer: string;
  warnings: string[];
  /** Tokens the model used (absent when it was not asked). */
  usage?: LlmUsage;
}

const NOTHING_MATCHES =
  'No passage of the page shares a word with the question: the answer is empty and the model was not asked.';

/**
 * The answer to `question` from `markdown`'s best passages: the model's (`freeform`) or the passages' (`directQuote`).
 */
export async function answerFromPage(
  llm: LlmService,
  markdown: string,
  question: string,
  mode: 'freeform' | 'directQuote',
  signal?: AbortSignal,
  progress?: LlmProgress,
): Promise<Answer> {
  const passages = highlightsText(highlights(markdown, question));
  if (passages === '') return { answer: '', warnings: [NOTHING_MATCHES] };
  if (mode === 'directQuote') return { answer: passages, warnings: [] };
  const result = await llm.answer(question, passages, signal, progress);
  return { answer: result.value, warnings: result.warnings, usage: result.usage };
}

/** Fills `answer` for a question asked of the page. */
async function produceAnswer(state: ExtractedState, question: string, mode: 'freeform' | 'directQuote') {
  const markdown = state.extraction.markdown ?? '';
  const progress = state.deadline.modelTask();
  const answer = await answerFromPage(state.ctx.llm, markdown, question, mode, state.signal, progress);
  state.document.answer = answer.answer;
  pushWarnings(state, answer.warnings);
  if (answer.usage) addModelUsage(state, answer.usage);
}

/** `question` (`{ question }`): the model's answer, written from the page's best passages only. */
export const questionFormat = defineFormat({
  type: 'question',
  schema: z.strictObject({ type: z.literal('question'), question: z.string().min(1).max(10_000) }),
  extraction: () => ({ markdown: true }),
  needsModel: () => 'question format',
  zeroDataRetentionWarning: () => 'The question format is not supported with zero data retention.',
  credits: () => ({ surcharge: ANSWER_SURCHARGE }),
  produce: (format, state) => produceAnswer(state, format.question, 'freeform'),
});

/** `query` (`{ prompt, mode }`, upstream's older form of `question`): `directQuote` answers with the passages. */
export const queryFormat = defineFormat({
  type: 'query',
  schema: z.strictObject({
    type: z.literal('query'),
    prompt: z.string().min(1).max(10_000),
    mode: z.enum(['freeform', 'directQuote']).default('freeform'),
  }),
  extraction: () => ({ markdown: true }),
  needsModel: (format) => (format.mode === 'freeform' ? 'query format (freeform; directQuote needs none)' : undefined),
  zeroDataRetentionWarning: (format) =>
    format.mode === 'freeform' ? 'The query format (freeform) is not supported with zero data retention.' : undefined,
  credits: () => ({ surcharge: ANSWER_SURCHARGE }),
  produce: (format, state) => produceAnswer(state, format.prompt, format.mode),
});
