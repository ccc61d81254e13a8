// Public surface of explain.
export { explainPage } from './explain-page.js';
export type { ExplainedBlock, ExplainedPage, ExplainKeepRule, ExplainOptions } from './explain-page.js';
export { MAX_SUGGESTIONS } from './suggest.js';
export type { Suggestion } from './suggest.js';
