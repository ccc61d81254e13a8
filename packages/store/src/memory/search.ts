import { setImmediate } from 'node:timers/promises';
import type { Lifecycle } from '../lifecycle.js';
import type { SearchHit, SearchIndex, SearchQuery, SearchText } from '../types.js';
import { searchableText, termCounts, type ColumnHits, type TermCounts } from '../search/entry.js';
import { searchHost } from '../search/hosts.js';
import { searchPostings, type EntryMeta, type Postings, type PostingSource } from '../search/postings.js';

interface Entry {
  meta: EntryMeta;
  text: SearchText;
  /** Each of its terms' positions, encoded (`search/positions.ts`); absent until the entry is indexed. */
  positions?: Map<string, string>;
  /** What names its text when the caller gave the text's digest: entries of one text share its terms. */
  textKey?: string;
}

/** How long a search indexes the entries waiting before it lets the event loop turn (at least one entry a turn). */
const INDEX_SLICE_MS = 10;

/**
 * The search index in this process: postings in Maps, ranked by `searchPostings`. A text is indexed when the first
 * search after it runs, not when it is put: a batch's pages are put on the thread that answers the caller, and
 * splitting every page into terms there, as each arrived, halved a batch's pages a second and held the event loop
 * for hundreds of milliseconds (the collector copying the young postings), for a search most runs never make. The
 * SQLite store defers its full-text writes for the same reason (`search-backlog.ts`).
 */
export class MemorySearchIndex implements SearchIndex, PostingSource {
  readonly #life: Lifecycle;
  readonly #entries = new Map<string, Entry>();
  /** Ids of the entries put and not indexed yet, in the order they came. */
  readonly #waiting = new Set<string>();
  /** The terms of each text more than one entry may hold (a page and the result of its scrape), by `textKey`. */
  readonly #texts = new Map<string, { counts: TermCounts; entries: number }>();
  /** The indexing a search started, which the searches meanwhile wait for too. */
  #indexing: Promise<void> | undefined;
  readonly #postings = new Map<string, Map<string, ColumnHits>>();
  /** Entry ids of each job's results. */
  readonly #jobs = new Map<string, Set<string>>();
  /** Entry ids of each URL. */
  readonly #urls = new Map<string, Set<string>>();
  #length = 0;

  constructor(life: Lifecycle) {
    this.#life = life;
  }

  search(query: SearchQuery): Promise<SearchHit[]> {
    return this.#life
      .run(() => undefined)
      .then(() => this.#indexWaiting())
      .then(() => searchPostings(this, query));
  }

  /** How many entries wait to be indexed (the next search indexes them). */
  get waiting(): number {
    return this.#waiting.size;
  }

  count(): Promise<number> {
    return this.#life.run(() => this.#entries.size);
  }

  /** Indexes a page cache entry (or drops its old text when `text` is absent). */
  putPage(key: string, cachedAt: number, text: SearchText | undefined): void {
    this.removePage(key);
    if (text)
      this.#add(
        { id: `p:${key}`, url: text.url, host: searchHost(text.url), time: cachedAt, length: 0, pageKey: key },
        text,
      );
  }

  /** A page's text keeps its place with a new time (its copy confirmed). */
  touchPage(key: string, cachedAt: number): void {
    const entry = this.#entries.get(`p:${key}`);
    if (entry) entry.meta.time = cachedAt;
  }

  removePage(key: string): void {
    this.#remove(`p:${key}`);
  }

  clearPages(): void {
    for (const entry of [...this.#entries.values()]) if (entry.meta.pageKey !== undefined) this.#remove(entry.meta.id);
  }

  putResult(jobId: string, seq: number, time: number, text: SearchText): void {
    const id = `r:${jobId}:${seq}`;
    this.#add({ id, url: text.url, host: searchHost(text.url), time, length: 0, jobId }, text);
    let ids = this.#jobs.get(jobId);
    if (!ids) this.#jobs.set(jobId, (ids = new Set()));
    ids.add(id);
  }

  removeJob(jobId: string): void {
    for (const id of this.#jobs.get(jobId) ?? []) this.#remove(id);
    this.#jobs.delete(jobId);
  }

  // PostingSource

  totals(): Promise<{ entries: number; length: number }> {
    return Promise.resolve({ entries: this.#entries.size, length: this.#length });
  }

  postings(terms: readonly string[]): Promise<Postings> {
    const hits = new Map<string, Map<string, ColumnHits>>();
    for (const term of terms) {
      const postings = this.#postings.get(term);
      if (postings) hits.set(term, postings);
    }
    return Promise.resolve({ hits, positions: (term, id) => this.#entries.get(id)?.positions?.get(term) });
  }

  expand(prefix: string): Promise<string[]> {
    return Promise.resolve([...this.#postings.keys()].filter((term) => term.startsWith(prefix)));
  }

  meta(ids: readonly string[]): Promise<Map<string, EntryMeta>> {
    return Promise.resolve(this.#pick(ids, (e) => e.meta));
  }

  texts(ids: readonly string[]): Promise<Map<string, SearchText>> {
    return Promise.resolve(this.#pick(ids, (e) => e.text));
  }

  newest(urls: readonly string[]): Promise<Map<string, number>> {
    const times = new Map<string, number>();
    for (const url of urls) {
      for (const id of this.#urls.get(url) ?? []) {
        const time = this.#entries.get(id)!.meta.time;
        if (time > (times.get(url) ?? -Infinity)) times.set(url, time);
      }
    }
    return Promise.resolve(times);
  }

  #pick<T>(ids: readonly string[], part: (entry: Entry) => T): Map<string, T> {
    const found = new Map<string, T>();
    for (const id of ids) {
      const entry = this.#entries.get(id);
      if (entry) found.set(id, part(entry));
    }
    return found;
  }

  #add(meta: EntryMeta, text: SearchText): void {
    const entry: Entry = { meta, text: searchableText(text) };
    if (text.textDigest) entry.textKey = `${entry.text.title}\0${entry.text.description}\0${text.textDigest}`;
    this.#entries.set(meta.id, entry);
    this.#waiting.add(meta.id);
    let ids = this.#urls.get(meta.url);
    if (!ids) this.#urls.set(meta.url, (ids = new Set()));
    ids.add(meta.id);
  }

  /** Indexes the entries waiting, `INDEX_SLICE_MS` a turn; settles once none waits (those put meanwhile included). */
  #indexWaiting(): Promise<void> {
    if (this.#waiting.size === 0) return Promise.resolve();
    this.#indexing ??= this.#indexAll().finally(() => (this.#indexing = undefined));
    return this.#indexing;
  }

  async #indexAll(): Promise<void> {
    for (;;) {
      const started = performance.now();
      // The Set's order, from its start: `#index` deletes each id as it goes.
      for (const id of this.#waiting) {
        this.#index(id);
        if (performance.now() - started >= INDEX_SLICE_MS) break;
      }
      if (this.#waiting.size === 0) return;
      await setImmediate();
    }
  }

  #index(id: string): void {
    this.#waiting.delete(id);
    const entry = this.#entries.get(id)!;
    const shared = entry.textKey === undefined ? undefined : this.#texts.get(entry.textKey);
    const counts = shared?.counts ?? termCounts(entry.text);
    if (shared) shared.entries++;
    else if (entry.textKey !== undefined) this.#texts.set(entry.textKey, { counts, entries: 1 });
    entry.meta.length = counts.length;
    entry.positions = counts.positions;
    this.#length += counts.length;
    for (const [term, hits] of counts.terms) {
      let postings = this.#postings.get(term);
      if (!postings) this.#postings.set(term, (postings = new Map<string, ColumnHits>()));
      postings.set(id, hits);
    }
  }

  #remove(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#waiting.delete(id);
    const ids = this.#urls.get(entry.meta.url)!;
    ids.delete(id);
    if (ids.size === 0) this.#urls.delete(entry.meta.url);
    if (!entry.positions) return;
    this.#length -= entry.meta.length;
    const shared = entry.textKey === undefined ? undefined : this.#texts.get(entry.textKey);
    if (shared && --shared.entries === 0) this.#texts.delete(entry.textKey!);
    for (const term of entry.positions.keys()) {
      const postings = this.#postings.get(term)!;
      postings.delete(id);
      if (postings.size === 0) this.#postings.delete(term);
    }
  }
}
