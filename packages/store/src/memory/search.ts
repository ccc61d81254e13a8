import type { Lifecycle } from '../lifecycle.js';
import type { SearchHit, SearchIndex, SearchQuery, SearchText } from '../types.js';
import { searchableText, termCounts, type ColumnHits } from '../search/entry.js';
import { searchHost } from '../search/hosts.js';
import { searchPostings, type EntryMeta, type Postings, type PostingSource } from '../search/postings.js';

interface Entry {
  meta: EntryMeta;
  text: SearchText;
  /** Each of its terms' positions, encoded (`search/positions.ts`). */
  positions: Map<string, string>;
}

/** The search index in this process: postings in Maps, ranked by `searchPostings`. */
export class MemorySearchIndex implements SearchIndex, PostingSource {
  readonly #life: Lifecycle;
  readonly #entries = new Map<string, Entry>();
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
    return this.#life.run(() => undefined).then(() => searchPostings(this, query));
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
    return Promise.resolve({ hits, positions: (term, id) => this.#entries.get(id)?.positions.get(term) });
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
    const kept = searchableText(text);
    const counts = termCounts(kept);
    meta.length = counts.length;
    this.#entries.set(meta.id, { meta, text: kept, positions: counts.positions });
    let ids = this.#urls.get(meta.url);
    if (!ids) this.#urls.set(meta.url, (ids = new Set()));
    ids.add(meta.id);
    this.#length += counts.length;
    for (const [term, hits] of counts.terms) {
      let postings = this.#postings.get(term);
      if (!postings) this.#postings.set(term, (postings = new Map<string, ColumnHits>()));
      postings.set(meta.id, hits);
    }
  }

  #remove(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#length -= entry.meta.length;
    const ids = this.#urls.get(entry.meta.url)!;
    ids.delete(id);
    if (ids.size === 0) this.#urls.delete(entry.meta.url);
    for (const term of entry.positions.keys()) {
      const postings = this.#postings.get(term)!;
      postings.delete(id);
      if (postings.size === 0) this.#postings.delete(term);
    }
  }
}
