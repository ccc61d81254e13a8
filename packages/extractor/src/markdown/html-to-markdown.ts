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
   * The page's own URL, when its links are already absolute: a link to it with a fragment is a place in the page (a
   * heading's permalink, dropped).
   * @default baseUrl
   */
  pageUrl?: string;
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
  /**
   * Write what markdown has no syntax for as HTML inside the markdown: `<div>` and other HTML blocks, tables GFM
   * cannot hold (spans, blocks in cells, no header row), `<del>`, `<u>`, `<mark>`, custom elements, `<a>` without
   * `href`; and keep empty headings, quotes, list items and links, and emphasis nested in its own kind. Everything
   * markdown expresses stays markdown. The HTML is sanitised: no scripts, styles or other non-content elements, no
   * event handlers, no `javascript:` URLs. Off by default: the default output is plain markdown for people and
   * language models.
   * @default false
   */
  rawHtml?: boolean;
  /**
   * Write a `<figcaption>` as an italic line of its own under its image (`*Fig. 1: Soil carbon by depth.*`).
   * Without it a caption is a plain paragraph (the main content drops captions unless its `captions` option keeps
   * them).
   * @default false
   */
  captions?: boolean;
  /**
   * Write an `<iframe>` with a `src` as a link line (`[title or host](src)`), and a `<video>` or `<audio>` with a
   * source as `[label](src)`. Without it they are left out, as upstream does.
   * @default false
   */
  embeds?: boolean;
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
    rawHtml: options.rawHtml ?? false,
    ...(options.captions ? { captions: true } : {}),
    ...(options.embeds ? { embeds: true } : {}),
    budget,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.pageUrl !== undefined ? { pageUrl: options.pageUrl } : {}),
  });
  if (typeof input === 'string') feedHtml(converter, input, budget);
  else feedNodes(converter, Array.isArray(input) ? input : [input]);
  return converter.finish();
}
