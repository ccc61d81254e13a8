import { hash } from 'node:crypto';

import { searchableBody, searchableHead } from '../search/entry.js';
import { searchTextDigest } from '../text-digest.js';
import { searchHost } from '../search/hosts.js';
import type { QueryTerm, SearchTerms } from '../search/query.js';
import { newestOnly } from '../search/postings.js';
import { COLUMN_WEIGHTS } from '../search/ranking.js';
import { hitSnippet } from '../search/snippet.js';
import type { SearchHit, SearchIndex, SearchQuery, SearchText } from '../types.js';
import type { SqliteDatabase, SqlValue } from './database.js';
import { noteUnindexed, type SearchBacklog } from './search-backlog.js';

/** A condition of a query's WHERE clause and its parameters. */
interface Clause {
  sql: string;
  params: SqlValue[];
}

/** A match as the ranking reads it: its entry, its URL, its time and its score. */
interface RankRow {
  id: number;
  url: string;
  time: number;
  score: number;
}

interface HitRow {
  id: number;
  url: string;
  host: string;
  time: number;
  page_key: string | null;
  job_id: string | null;
  title: string;
  description: string;
  text: string;
}

/**
 * A word for FTS5, which holds the words `tokens.ts` reads (`indexedText`) and stems them as it stems this: quoted, so
 * that no character of it is query syntax (words hold only letters, marks and digits).
 */
const quote = (t: QueryTerm) => `"${t.word.replaceAll('"', '""')}"${t.prefix ? '*' : ''}`;
/** A phrase; FTS5 reads a `*` after it as its last word's prefix (the one a query's phrase may end with). */
const phrase = (words: readonly QueryTerm[]) =>
  `"${words.map((w) => w.word.replaceAll('"', '""')).join(' ')}"${words.at(-1)?.prefix ? '*' : ''}`;

/**
 * The FTS5 expression of a parsed query: every phrase, and at least one loose word (or, with phrases, the first
 * phrase again: loose words then only rank), and none of the excluded.
 */
export function matchExpression(terms: SearchTerms): string {
  const phrases = terms.phrases.map(phrase);
  const loose = terms.any.map(quote);
  let expression: string;
  if (phrases.length === 0) expression = loose.join(' OR ');
  else if (loose.length === 0) expression = phrases.join(' AND ');
  else expression = `${phrases.join(' AND ')} AND (${[...loose, phrases[0]].join(' OR ')})`;
  if (terms.none.length) expression = `(${expression}) NOT (${terms.none.map(phrase).join(' OR ')})`;
  return expression;
}

/** Hits read per hit asked, so that entries of a URL already listed do not leave the answer short. */
const OVERREAD = 4;

/**
 * The SQLite search index: FTS5's `bm25()` over `search_text` (the words of `tokens.ts`, contentless: the texts are
 * in `search_content`), filtered by `search_entries`; snippets are the JavaScript drivers' (`hitSnippet`).
 */
export class SqliteSearchIndex implements SearchIndex {
  readonly #db: SqliteDatabase;
  readonly #backlog: SearchBacklog;
  /** Commits the pages' puts still waiting for the end of their turn: their texts are searchable once put. */
  readonly #flushPuts: () => Promise<void>;

  constructor(db: SqliteDatabase, backlog: SearchBacklog, flushPuts: () => Promise<void>) {
    this.#db = db;
    this.#backlog = backlog;
    this.#flushPuts = flushPuts;
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    await this.#flushPuts();
    // Texts still waiting for FTS5 are searched too (a page is findable as soon as it is stored).
    await this.#backlog.drain();
    const clauses = this.#where(query);
    const newest = (urls: readonly string[]) => this.#db.use(() => this.#newest(urls));
    // Ranked first, then the text read and its snippet made for the hits kept only: FTS5's `snippet()` on every match
    // (before the LIMIT) was 90% of a query, and a word in most pages held the thread for a time growing with the
    // store. Entries of a URL already listed, or older than another of their URL, are skipped: read more while they
    // leave the answer short.
    let read = query.limit * OVERREAD;
    let kept: RankRow[];
    for (;;) {
      const ranked = await this.#db.use(() => this.#rank(clauses, read));
      kept = await newestOnly(ranked, query.limit, newest);
      if (kept.length >= query.limit || ranked.length < read) break;
      read *= 4;
    }
    if (kept.length === 0) return [];
    const rows = await this.#db.use(() =>
      this.#db.all<HitRow>(
        `SELECT e.id, e.url, e.host, e.time, e.page_key, e.job_id, c.title, c.description, c.text
         FROM search_entries e JOIN search_content c ON c.id = e.doc_id
         WHERE e.id IN (${kept.map(() => '?').join(', ')})`,
        ...kept.map((row) => row.id),
      ),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return kept.flatMap(({ id, score }) => {
      const row = byId.get(id);
      return row ? [toHit(row, score, query.terms)] : [];
    });
  }

  /** The WHERE clause of a query and its parameters: the FTS5 match first, then the filters. */
  #where(query: SearchQuery): [Clause, ...Clause[]] {
    const clauses: [Clause, ...Clause[]] = [{ sql: 'search_text MATCH ?', params: [matchExpression(query.terms)] }];
    if (query.since !== undefined) clauses.push({ sql: 'e.time >= ?', params: [query.since] });
    if (query.until !== undefined) clauses.push({ sql: 'e.time <= ?', params: [query.until] });
    const hosts = (domains: readonly string[]) => ({
      sql: `(${domains.map(() => "(e.host = ? OR e.host LIKE ? ESCAPE '\\')").join(' OR ')})`,
      params: domains.flatMap((d) => [d, `%.${d.replace(/[\\%_]/g, '\\$&')}`]),
    });
    if (query.includeHosts?.length) clauses.push(hosts(query.includeHosts));
    if (query.excludeHosts?.length) {
      const excluded = hosts(query.excludeHosts);
      clauses.push({ sql: `NOT ${excluded.sql}`, params: excluded.params });
    }
    return clauses;
  }

  /** The `read` best matches, best first. */
  #rank(clauses: Clause[], read: number): RankRow[] {
    return this.#db.all<RankRow>(
      `SELECT e.id, e.url, e.time, -bm25(search_text, ${COLUMN_WEIGHTS.join(', ')}) AS score
       FROM search_text JOIN search_entries e ON e.doc_id = search_text.rowid
       WHERE ${clauses.map((c) => c.sql).join(' AND ')}
       ORDER BY score DESC, e.id LIMIT ?`,
      ...clauses.flatMap((c) => c.params),
      read,
    );
  }

  /** The time of each URL's newest entry. */
  #newest(urls: readonly string[]): Map<string, number> {
    const rows = this.#db.all<{ url: string; time: number }>(
      `SELECT e.url, max(e.time) AS time FROM json_each(?) j JOIN search_entries e ON e.url = j.value GROUP BY e.url`,
      JSON.stringify(urls),
    );
    return new Map(rows.map((row) => [row.url, row.time]));
  }

  async count(): Promise<number> {
    await this.#flushPuts();
    return this.#db.use(() => this.#db.get<{ n: number }>('SELECT count(*) AS n FROM search_entries')!.n);
  }
}

function toHit(row: HitRow, score: number, terms: SearchTerms): SearchHit {
  const hit: SearchHit = {
    url: row.url,
    title: row.title,
    description: row.description,
    snippet: hitSnippet(row, terms),
    text: row.text,
    score,
    time: row.time,
    host: row.host,
  };
  if (row.page_key !== null) hit.pageKey = row.page_key;
  if (row.job_id !== null) hit.jobId = row.job_id;
  return hit;
}

/** Replaces a page's text in the index (none: it leaves). Call inside the page's `write`. */
export function indexPage(db: SqliteDatabase, key: string, cachedAt: number, text: SearchText | undefined): void {
  db.run('DELETE FROM search_entries WHERE page_key = ?', key);
  if (text) insert(db, { page_key: key, job_id: null, seq: null }, cachedAt, text);
}

/** Indexes a job's result. Call inside the completion's `write`. */
export function indexResult(db: SqliteDatabase, jobId: string, seq: number, time: number, text: SearchText): void {
  insert(db, { page_key: null, job_id: jobId, seq }, time, text);
}

/**
 * The sha256 of a page's kept text: a page's text is indexed once, however many entries hold it (its cache entry and
 * the results of its jobs). The text's own digest comes with it when the caller made it (off this thread).
 */
function digestOf(text: SearchText, head: { title: string; description: string }): Buffer {
  const textDigest = text.textDigest ?? searchTextDigest(searchableBody(text));
  return hash('sha256', `${head.title}\0${head.description}\0${textDigest}`, 'buffer');
}

function insert(
  db: SqliteDatabase,
  owner: { page_key: string | null; job_id: string | null; seq: number | null },
  time: number,
  text: SearchText,
): void {
  // The main content is read only for a text the index does not hold yet: a page confirmed again (a recrawl's 304)
  // names its text by its digest, and may make the text only when it is read (crawlkit's kept extractions do).
  const kept = searchableHead(text);
  const digest = digestOf(text, kept);
  const doc = db.get<{ id: number; refs: number }>(
    `INSERT INTO search_docs (hash, refs) VALUES (?, 1) ON CONFLICT (hash) DO UPDATE SET refs = refs + 1
     RETURNING id, refs`,
    digest,
  )!;
  if (doc.refs === 1) {
    db.run(
      'INSERT INTO search_content (id, title, description, text) VALUES (?, ?, ?, ?)',
      doc.id,
      kept.title,
      kept.description,
      searchableBody(text),
    );
    db.run('INSERT INTO search_unindexed (doc_id) VALUES (?)', doc.id);
    noteUnindexed(db);
  }
  db.run(
    'INSERT INTO search_entries (page_key, job_id, seq, url, host, time, doc_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    owner.page_key,
    owner.job_id,
    owner.seq,
    kept.url,
    searchHost(kept.url),
    time,
    doc.id,
  );
}
