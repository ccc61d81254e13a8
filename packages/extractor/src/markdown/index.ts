// Public surface of the HTML → markdown converter.
export { htmlToMarkdown } from './html-to-markdown.js';
export type { MarkdownOptions } from './html-to-markdown.js';
export { MarkdownBudgetError, isMarkdownBudgetError } from './errors.js';
export type { MarkdownBudgetErrorCode } from './errors.js';
export { withCents } from './price-cents.js';
