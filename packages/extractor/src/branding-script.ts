/**
 * The in-page branding collector alone (`@crawlkit/extractor/branding-script`): the main thread adds it to a page's
 * actions without loading the extractor.
 */
export { BRANDING_SCRIPT } from './branding/collect-script.js';
