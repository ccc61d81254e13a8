import type { EngineContext } from '../context.js';
import type { Document } from '../v2/types.js';
import type { BuiltContent, FetchedContent } from './content.js';
import { summarizeExtractive } from './summary.js';
import type { PageScrapeContext, PageScrapeRequest } from './scrape-page.js';

export interface PostprocessInput {
  request: PageScrapeRequest;
  context: PageScrapeContext;
  content: BuiltContent;
  fetched: FetchedContent;
  document: Document;
  warnings: string[];
  signal: AbortSignal;
}

/** Formats computed from the markdown or the page after extraction: summary, json, change tracking, branding. */
export async function runPostprocessors(ctx: EngineContext, input: PostprocessInput): Promise<void> {
  const { request, document, content, warnings } = input;
  const markdown = content.markdown ?? '';
  for (const format of request.formats) {
    switch (format.type) {
      case 'summary': {
        const summary = await ctx.llm.summarize(markdown, input.signal);
        if (summary) {
          document.summary = summary;
        } else {
          document.summary = summarizeExtractive(markdown);
          warnings.push('No language model is configured: the summary is extractive (sentences taken from the page).');
        }
        break;
      }
      case 'json':
        document.json = await ctx.llm.extractJson(markdown, format, input.signal, warnings);
        break;
      default:
        break;
    }
  }
}
