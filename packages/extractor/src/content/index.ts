// Public surface of main-content extraction.
export { extractMainContent, findMainContent } from './extract.js';
export type { MainContent, MainContentOptions } from './extract.js';
export type { KeepRule } from './trace.js';
