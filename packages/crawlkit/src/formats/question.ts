/**
 * The `question` format and the older `query` (2026): an answer written by the model from the page's passages that
 * best match the question (`highlights`), never from the whole page. `query` in `directQuote` mode answers with
 * those passages verbatim, with no model.
 */
import type { LlmUsage } from '../llm/generate.js';
import type { LlmService } from '../llm/llm-service.js';
import { highlights, highlightsText } from './highlights.js';

export interface Answer {
  answer: string;
  warnings: string[];
  /** Tokens the model used (absent when it was not asked). */
  usage?: LlmUsage;
}

const NOTHING_MATCHES =
  'No passage of the page shares a word with the question: the answer is empty and the model was not asked.';

/** The answer to `question` from `markdown`'s best passages: the model's (`freeform`) or the passages' (`directQuote`). */
export async function answerFromPage(
  llm: LlmService,
  markdown: string,
  question: string,
  mode: 'freeform' | 'directQuote',
  signal?: AbortSignal,
): Promise<Answer> {
  const passages = highlightsText(highlights(markdown, question));
  if (passages === '') return { answer: '', warnings: [NOTHING_MATCHES] };
  if (mode === 'directQuote') return { answer: passages, warnings: [] };
  const result = await llm.answer(question, passages, signal);
  return { answer: result.value, warnings: result.warnings, usage: result.usage };
}
