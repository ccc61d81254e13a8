import { z } from 'zod';

import { addModelUsage, mayAskModel, pushWarnings } from '../scrape/scrape-state.js';
import { defineFormat } from './format-module.js';

const NO_MODEL_SUMMARY =
  'No language model is configured: the summary is extractive (sentences taken from the page). ' +
  'Pass `new Crawlkit({ llm })` for a written summary.';
const ZDR_SUMMARY =
  'Zero data retention keeps the page from the language model: the summary is extractive (sentences taken from the ' +
  'page).';

/**
 * `summary`: written by the configured language model from the page's markdown; without a model (or when it fails
 * or answers nothing) the page's first substantial sentences, with a warning saying so. An empty page has an empty
 * summary. The model call shares the scrape's timeout. Zero data retention keeps the page from the model (its provider
 * may keep what it is sent): the summary is extractive then, with a warning.
 */
export const summaryFormat = defineFormat({
  type: 'summary',
  schema: z.strictObject({ type: z.literal('summary') }),
  extraction: () => ({ markdown: true }),
  produce: async (_format, state) => {
    const { ctx, document, warnings, signal } = state;
    const markdown = state.extraction.markdown ?? '';
    if (markdown.trim() === '') {
      document.summary = '';
      return;
    }
    const extractive = () => ctx.extraction.run({ kind: 'summary', markdown }, { signal });
    if (!mayAskModel(state)) {
      document.summary = await extractive();
      warnings.push(state.context.zeroDataRetention ? ZDR_SUMMARY : NO_MODEL_SUMMARY);
      return;
    }
    try {
      const summary = await ctx.llm.summarize(markdown, signal, state.deadline.modelTask());
      if (summary) addModelUsage(state, summary.usage);
      if (summary?.value) {
        document.summary = summary.value;
        pushWarnings(state, summary.warnings);
        return;
      }
      warnings.push('The language model returned an empty summary: the summary is extractive.');
    } catch (error) {
      if (signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      warnings.push(`The language model failed (${message}): the summary is extractive.`);
    }
    document.summary = await extractive();
  },
});
