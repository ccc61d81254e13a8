// Public surface of main-content extraction.
export { extractMainContent, findMainContent } from './extract.js';
export type { MainContent, MainContentOptions } from './extract.js';
export { DROP_RULES } from './trace.js';
export type { DropRule, DropRuleInfo, KeepRule } from './trace.js';
