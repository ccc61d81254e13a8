import type { AnyNode } from 'domhandler';

import { Budget } from './budget.js';
import { Converter } from './converter.js';
import { feedHtml, feedNodes } from './drivers.js';

export interface MarkdownOptions {
  /**
   * Base URL for resolving relative link and image URLs that are still relative (a `<base href>` in the input
   * is resolved against it). Absent: relative URLs stay as they are.
   * @default undefined
   */
  baseUrl?: string;
  /**
   * Replace base64 `data:` image URLs with `<Base64-Image-Removed>` (reference §10.6).
   * @default false
   */
  removeBase64Images?: boolean;
  /**
   * Epoch milliseconds (`Date.now()` clock) after which conversion gives up with `MarkdownBudgetError`. Checked
   * cooperatively: every few hundred elements, between 1 MB slices of input or text, and while assembling output.
   * @default undefined (no limit)
   */
  deadline?: number;
}

/**
 * Converts HTML to GitHub-flavoured markdown in one linear pass. A string is streamed through htmlparser2's
 * tokenizer without building a DOM; a domhandler node (or nodes) is walked as is, never re-parsed.
 *
 * @throws {MarkdownBudgetError} when `deadline` passes before the conversion ends.
 */
export function htmlToMarkdown(input: string | AnyNode | AnyNode[], options: MarkdownOptions = {}): string {
  if (input === null || input === undefined || input === '') return '';
  const budget = new Budget(options.deadline);
  budget.check();
  const converter = new Converter({
    removeBase64Images: options.removeBase64Images ?? false,
    budget,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
  });
  if (typeof input === 'string') feedHtml(converter, input, budget);
  else feedNodes(converter, Array.isArray(input) ? input : [input]);
  return converter.finish();
}
