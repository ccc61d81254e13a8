/**
 * The formats added in 2026 (`highlights`, `question`, `query`, `product`, `rawBase64`) and the warnings of features
 * that cannot exist locally, computed after extraction from the page's markdown and raw HTML. One module per format;
 * this runner is the one place the scrape path calls.
 */
import type { EngineContext } from '../context.js';
import { addUsage, emptyUsage, type LlmUsage } from '../llm/generate.js';
import { pageText, type FetchedContent } from '../scrape/content.js';
import type { PageScrapeRequest } from '../scrape/types.js';
import type { Document } from '../v2/types.js';
import { highlights, highlightsText } from './highlights.js';
import { extractProduct } from './product.js';
import { answerFromPage } from './question.js';
import { unavailableFeatureWarnings } from './unavailable.js';

export interface FormatModuleInput {
  request: PageScrapeRequest;
  /** The page's markdown (main content unless `onlyMainContent` is off), computed for these formats. */
  markdown: string;
  /** The page as fetched (or read from the cache). */
  fetched: FetchedContent;
  document: Document;
  warnings: string[];
  signal: AbortSignal;
}

const NO_PRODUCT =
  'No product was found on this page: it declares none in JSON-LD, microdata or OpenGraph product tags.';

function pushUnique(warnings: string[], more: readonly string[]): void {
  for (const warning of more) if (!warnings.includes(warning)) warnings.push(warning);
}

/** Fills the document's fields of the 2026 formats the request asks for, and says what cannot be had locally. */
export async function runFormatModules(ctx: EngineContext, input: FormatModuleInput): Promise<void> {
  const { request, markdown, fetched, document, warnings, signal } = input;
  const usage: LlmUsage = emptyUsage();
  let usedModel = false;
  for (const format of request.formats) {
    switch (format.type) {
      case 'highlights':
        document.highlights = highlightsText(highlights(markdown, format.query));
        break;
      case 'question':
      case 'query': {
        const question = format.type === 'question' ? format.question : format.prompt;
        const mode = format.type === 'query' ? format.mode : 'freeform';
        const answer = await answerFromPage(ctx.llm, markdown, question, mode, signal);
        document.answer = answer.answer;
        pushUnique(warnings, answer.warnings);
        if (answer.usage) {
          addUsage(usage, answer.usage);
          usedModel = true;
        }
        break;
      }
      case 'product': {
        const html =
          /html|xml/i.test(fetched.contentType) || fetched.contentType === '' ? pageText(fetched) : undefined;
        const product = html === undefined ? undefined : extractProduct(html, fetched.url);
        if (product) document.product = product;
        else pushUnique(warnings, [NO_PRODUCT]);
        break;
      }
      case 'rawBase64':
        document.rawBase64 = Buffer.from(fetched.body ?? fetched.text ?? '').toString('base64');
        break;
      default:
        break;
    }
  }
  pushUnique(warnings, unavailableFeatureWarnings(request));
  if (usedModel) {
    const prior = document.metadata.llmUsage as LlmUsage | undefined;
    document.metadata.llmUsage = prior ? addUsage(addUsage(emptyUsage(), prior), usage) : usage;
  }
}
