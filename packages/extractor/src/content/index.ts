// Public surface of main-content extraction (owned by the main-content work, issue 2).
// Placeholder until the scorer lands: the reference's structural blocklist (§10.2).
import type { Document } from 'domhandler';

import { removeBoilerplate } from '../clean/boilerplate.js';

export interface MainContentOptions {
  /** The page URL (after redirects). */
  url?: string;
}

/** Returns a Document holding only the page's main content, in document order. May mutate `document`. */
export function extractMainContent(document: Document, _options: MainContentOptions = {}): Document {
  removeBoilerplate(document.children, []);
  return document;
}
