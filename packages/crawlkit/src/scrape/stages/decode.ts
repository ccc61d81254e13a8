import { extractionInput } from '../extraction-settings.js';
import type { ScrapeStage } from '../scrape-state.js';

/**
 * Decides what the page is (HTML, PDF, JSON, XML, text, or unsupported) from its content type and first bytes, and
 * what the extraction worker will read of it. The text itself is decoded in the worker: the main thread makes no
 * string as large as the page. The fetch's notes go first in the document's `warning`.
 */
export const decodeStage: ScrapeStage = {
  name: 'decode',
  run(state) {
    const page = state.page!;
    state.input = extractionInput(page);
    if (page.warnings) state.warnings.push(...page.warnings);
  },
};
