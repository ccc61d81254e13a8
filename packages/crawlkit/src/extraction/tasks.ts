/**
 * The CPU-bound work of a page, as tasks of plain data: what the main thread sends to the extraction pool's worker
 * threads, and what comes back. Strings, plain objects and byte arrays cross; DOMs never do.
 */
import { diffMarkdown, isSameText, type MarkdownDiff } from '@crawlkit/extractor';
import { judgeRendering, type JudgedPage, type RenderVerdict } from '@crawlkit/fetcher/analysis';
import { readSitemap, type SitemapBody, type SitemapDocument } from '@crawlkit/frontier';

import { pageLinks, type MapScope, type PageLinks } from '../api/map-links.js';
import { isErrorCode } from '../error-codes.js';
import { extractContent, pageText, plainTextContent, type BuiltContent, type ContentTask } from '../scrape/content.js';
import { summarizeExtractive } from '../scrape/summary.js';

export type ExtractionTask =
  /** A page's content by content type: HTML, PDF, JSON, XML, text. */
  | ({ kind: 'content' } & ContentTask)
  /** The fallback rendering of a page whose extraction was cut: linear, no DOM. */
  | ({ kind: 'plainText' } & ContentTask)
  /** The render judge's verdict on a page fetched over HTTP: whether it needs the browser. */
  | { kind: 'judge'; page: JudgedPage }
  /**
   * The render judge's verdict and, when it finds nothing missing, the page's content: the page is decoded and
   * copied once for both.
   */
  | { kind: 'judgeContent'; page: JudgedPage; content: ContentTask }
  /** What `map` takes of a page it follows: its title, description and the links its request keeps. */
  | { kind: 'pageLinks'; page: { url: string; text: string }; scope: MapScope }
  /** A fetched sitemap read (gunzip, decode, XML parse): up to 50 MiB of it. `null`: an HTML page, not a sitemap. */
  | ({ kind: 'sitemap' } & SitemapBody)
  /** Change tracking: the comparison of two markdowns and, when asked, their git-style diff. */
  | { kind: 'compare'; previous: string; current: string; gitDiff: boolean }
  /** The extractive summary of a markdown. */
  | { kind: 'summary'; markdown: string };

/** A `judgeContent` task's answer: the content only when the verdict has no reason to render. */
export interface JudgedContent {
  verdict: RenderVerdict;
  content?: BuiltContent;
}

export interface Comparison {
  same: boolean;
  diff?: MarkdownDiff;
}

/** What each kind of task answers. */
export interface TaskResults {
  content: BuiltContent;
  plainText: BuiltContent;
  judge: RenderVerdict;
  judgeContent: JudgedContent;
  pageLinks: PageLinks;
  sitemap: SitemapDocument | null;
  compare: Comparison;
  summary: string;
}

export type TaskResult<T extends ExtractionTask> = TaskResults[T['kind']];

/**
 * A task's answer as it crosses back: errors are sent as data (a thrown error loses its class and `code` on the
 * way), with the crawlkit code when the failure has one.
 */
export type TaskOutcome<T = unknown> =
  { ok: true; value: T } | { ok: false; code?: string; message: string; name: string };

/**
 * The page's own text is sent back only when `rawHtml` was asked and the caller does not have it (it sent bytes):
 * a string as large as the page costs more to copy than anything else a task answers.
 */
function withoutInput(task: ContentTask, content: BuiltContent): BuiltContent {
  if (content.rawHtml === undefined) return content;
  if (!task.settings.rawHtml || content.rawHtml === task.page.text) delete content.rawHtml;
  return content;
}

/** Runs one task in this thread. */
export async function runTask(task: ExtractionTask): Promise<TaskResults[ExtractionTask['kind']]> {
  switch (task.kind) {
    case 'content':
      return withoutInput(task, await extractContent(task));
    case 'plainText':
      return withoutInput(task, plainTextContent(task));
    case 'judge':
      return judgeRendering(task.page);
    case 'judgeContent': {
      const text = pageText(task.content.page);
      const { undecoded: _bytes, ...page } = task.page;
      const verdict = judgeRendering(text === undefined ? page : { ...page, text });
      if (verdict.reason !== undefined || text === undefined) return { verdict };
      const { body: _body, undecodedText: _undecoded, ...input } = task.content.page;
      const content = await extractContent({ ...task.content, page: { ...input, text } });
      return { verdict, content: withoutInput(task.content, content) };
    }
    case 'pageLinks':
      return pageLinks(task.page, task.scope);
    case 'sitemap':
      return readSitemap(task) ?? null;
    case 'compare': {
      const same = isSameText(task.previous, task.current);
      if (same || !task.gitDiff) return { same };
      const diff = diffMarkdown(task.previous, task.current);
      return { same, diff: { text: diff.text, json: diff.json } };
    }
    case 'summary':
      return summarizeExtractive(task.markdown);
  }
}

/** Runs one task and answers its outcome as data: never throws. */
export async function settleTask(task: ExtractionTask): Promise<TaskOutcome> {
  try {
    return { ok: true, value: await runTask(task) };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const code = (e as { code?: unknown }).code;
    return { ok: false, message: e.message, name: e.name, ...(isErrorCode(code) ? { code } : {}) };
  }
}
