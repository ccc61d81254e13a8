import type { EngineContext } from '../context.js';
import { runFormatModules } from '../formats/index.js';
import { addUsage, emptyUsage, type LlmUsage } from '../llm/generate.js';
import type { Document } from '../v2/types.js';
import type { BuiltContent, FetchedContent } from './content.js';
import type { PageScrapeContext, PageScrapeRequest } from './types.js';

export interface PostprocessInput {
  request: PageScrapeRequest;
  context: PageScrapeContext;
  content: BuiltContent;
  fetched: FetchedContent;
  document: Document;
  warnings: string[];
  signal: AbortSignal;
}

const NO_MODEL_SUMMARY =
  'No language model is configured: the summary is extractive (sentences taken from the page). ' +
  'Pass `new Crawlkit({ llm })` for a written summary.';

function pushUnique(warnings: string[], more: readonly string[]): void {
  for (const warning of more) if (!warnings.includes(warning)) warnings.push(warning);
}

/**
 * Formats computed from the page's markdown after extraction: `summary` and `json` (change tracking and branding
 * have their own modules). Model calls share the scrape's timeout; the tokens they used go into
 * `metadata.llmUsage`. A json answer that stays invalid after the repair round fails the document (the error
 * propagates); a failed summary falls back to the extractive one with a warning.
 */
export async function runPostprocessors(ctx: EngineContext, input: PostprocessInput): Promise<void> {
  const { request, document, content, warnings, signal } = input;
  const markdown = content.markdown ?? '';
  const usage: LlmUsage = emptyUsage();
  let usedModel = false;
  const extractive = () => ctx.extraction.run({ kind: 'summary', markdown }, { signal });

  for (const format of request.formats) {
    switch (format.type) {
      case 'summary': {
        if (markdown.trim() === '') {
          document.summary = '';
          break;
        }
        if (!ctx.llm.configured) {
          document.summary = await extractive();
          warnings.push(NO_MODEL_SUMMARY);
          break;
        }
        try {
          const summary = await ctx.llm.summarize(markdown, signal);
          if (summary?.value) {
            document.summary = summary.value;
            pushUnique(warnings, summary.warnings);
            addUsage(usage, summary.usage);
            usedModel = true;
            break;
          }
          if (summary) addUsage(usage, summary.usage);
          warnings.push('The language model returned an empty summary: the summary is extractive.');
        } catch (error) {
          if (signal.aborted) throw error;
          warnings.push(
            `The language model failed (${error instanceof Error ? error.message : String(error)}): the summary is extractive.`,
          );
        }
        document.summary = await extractive();
        break;
      }
      case 'json': {
        const extracted = await ctx.llm.extract({
          markdown,
          ...(format.schema !== undefined ? { schema: format.schema } : {}),
          ...(format.prompt !== undefined ? { prompt: format.prompt } : {}),
          signal,
        });
        document.json = extracted.value;
        pushUnique(warnings, extracted.warnings);
        addUsage(usage, extracted.usage);
        usedModel = true;
        break;
      }
      default:
        break;
    }
  }
  if (usedModel) {
    // Other model users of the page (change tracking, branding) add to the same count.
    const prior = document.metadata.llmUsage as LlmUsage | undefined;
    document.metadata.llmUsage = prior ? addUsage(addUsage(emptyUsage(), prior), usage) : usage;
  }
  await runFormatModules(ctx, { request, markdown, fetched: input.fetched, document, warnings, signal });
}
