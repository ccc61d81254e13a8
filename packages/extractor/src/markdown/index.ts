// Public surface of the HTML → markdown converter.
export { htmlToMarkdown } from './html-to-markdown.js';
export type { MarkdownOptions } from './html-to-markdown.js';
export { MarkdownBudgetError } from './errors.js';
