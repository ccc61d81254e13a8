import type { JudgedPage, JudgeOptions, RenderVerdict } from '@crawlkit/fetcher';

import type { ExtractionPool } from '../extraction/pool.js';
import type { BuiltContent, ContentSettings, ContentTask, FetchedContent, PageInput } from './content.js';
import type { ScrapePhase } from './scrape-phase.js';

/** The page the content was made from, to tell whether the fetch returned that same page. */
interface Made {
  url: string;
  body: Uint8Array | undefined;
  text: string | undefined;
  content: BuiltContent;
}

/**
 * A scrape's render judge that extracts the page in the same worker task when the verdict keeps it on HTTP: the
 * page's bytes cross to a worker and are decoded once, not once to judge and once more to extract. `take()` then
 * gives that content for the fetched page it was made from (not for a rendered page that replaced it).
 */
export class EarlyContent {
  readonly #pool: ExtractionPool;
  readonly #settings: ContentSettings;
  readonly #budgetMs: number | undefined;
  readonly #phase: ScrapePhase;
  #made: Made | undefined;

  /** `phase` is told when a task that may extract the page is queued, when it starts, and when it answered. */
  constructor(pool: ExtractionPool, settings: ContentSettings, budgetMs: number | undefined, phase: ScrapePhase) {
    this.#pool = pool;
    this.#settings = settings;
    this.#budgetMs = budgetMs;
    this.#phase = phase;
  }

  /** The judge to give the fetcher for this scrape (`PageRequest.renderJudge`). */
  readonly judge = async (page: JudgedPage, options: JudgeOptions = {}): Promise<RenderVerdict> => {
    const input: PageInput = { url: page.url, contentType: page.contentType };
    if (page.text !== undefined) input.text = page.text;
    if (page.undecoded) {
      const { body, declaredCharset } = page.undecoded;
      input.body = body;
      input.undecodedText = declaredCharset !== undefined ? { declaredCharset } : {};
    }
    const task: ContentTask = { page: input, settings: this.#settings };
    if (this.#budgetMs !== undefined) task.budgetMs = this.#budgetMs;
    this.#phase.extracting();
    const { verdict, content } = await this.#pool.judgeWithContent(page, task, options.signal, this.#phase.running);
    this.#phase.fetching();
    if (content) this.#made = { url: page.url, body: input.body, text: input.text, content };
    return verdict;
  };

  /** The content made while judging, when `fetched` is the page it was made from. */
  take(fetched: FetchedContent): BuiltContent | undefined {
    const made = this.#made;
    this.#made = undefined;
    if (!made || made.url !== fetched.url) return undefined;
    const same = made.body !== undefined ? made.body === fetched.body : made.text === fetched.text;
    if (!same) return undefined;
    // The worker does not send the page's own text back.
    if (made.content.rawHtml === undefined && made.text !== undefined) made.content.rawHtml = made.text;
    return made.content;
  }
}
