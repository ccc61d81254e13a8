// Public surface of main-content extraction.
export { extractMainContent } from './extract.js';
export type { MainContentOptions } from './extract.js';
