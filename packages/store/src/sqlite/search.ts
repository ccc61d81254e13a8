import { hash } from 'node:crypto';

import { searchableBody, searchableHead } from '../search/entry.js';
import { searchTextDigest } from '../text-digest.js';
import { searchHost } from '../search/hosts.js';
import type { QueryTerm, SearchTerms } from '../search/query.js';
import { COLUMN_WEIGHTS } from '../search/ranking.js';
import { SNIPPET_WORDS } from '../search/snippet.js';
import type { SearchHit, SearchIndex, SearchQuery, SearchText } from '../types.js';
import type { SqliteDatabase, SqlValue } from './database.js';
import { noteUnindexed, type SearchBacklog } from './search-backlog.js';

/** A match as the ranking reads it: its entry, its URL and its score. */
interface RankRow {
  id: number;
  url: string;
  score: number;
}

interface HitRow {
  id: number;
  url: string;
  host: string;
  time: number;
  page_key: string | null;
  job_id: string | null;
  snippet: string;
  title: string;
  description: string;
  text: string;
}

/** A word for FTS5: quoted, so that no character of it is query syntax (words hold only letters and digits). */
const quote = (t: QueryTerm) => `"${t.word.replaceAll('"', '""')}"${t.prefix ? '*' : ''}`;
const phrase = (words: readonly QueryTerm[]) => `"${words.map((w) => w.word.replaceAll('"', '""')).join(' ')}"`;

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

/** The SQLite search index: FTS5's `bm25()` and `snippet()` over `search_text`, filtered by `search_entries`. */
export class SqliteSearchIndex implements SearchIndex {
  readonly #db: SqliteDatabase;
  readonly #backlog: SearchBacklog;

  constructor(db: SqliteDatabase, backlog: SearchBacklog) {
    this.#db = db;
    this.#backlog = backlog;
  }

  async search(query: SearchQuery): Promise<SearchHit[]> {
    // Texts still waiting for FTS5 are searched too (a page is findable as soon as it is stored).
    await this.#backlog.drain();
    return this.#db.use(() => {
      const where = ['search_text MATCH ?'];
      const params: SqlValue[] = [matchExpression(query.terms)];
      if (query.since !== undefined) {
        where.push('e.time >= ?');
        params.push(query.since);
      }
      if (query.until !== undefined) {
        where.push('e.time <= ?');
        params.push(query.until);
      }
      const hosts = (domains: readonly string[]) => {
        const each = domains.map(() => "(e.host = ? OR e.host LIKE ? ESCAPE '\\')");
        for (const d of domains) params.push(d, `%.${d.replace(/[\\%_]/g, '\\$&')}`);
        return `(${each.join(' OR ')})`;
      };
      if (query.includeHosts?.length) where.push(hosts(query.includeHosts));
      if (query.excludeHosts?.length) where.push(`NOT ${hosts(query.excludeHosts)}`);
      // Ranked first, then the snippet and the text read for the hits kept only: `snippet()` on every match (before
      // the LIMIT) was 90% of a query, and a word in most pages held the thread for a time growing with the store.
      const ranked = this.#db.all<RankRow>(
        `SELECT e.id, e.url, -bm25(search_text, ${COLUMN_WEIGHTS.join(', ')}) AS score
         FROM search_text JOIN search_entries e ON e.doc_id = search_text.rowid
         WHERE ${where.join(' AND ')}
         ORDER BY score DESC, e.id LIMIT ?`,
        ...params,
        query.limit * OVERREAD,
      );
      const kept: RankRow[] = [];
      const urls = new Set<string>();
      for (const row of ranked) {
        if (urls.has(row.url)) continue;
        urls.add(row.url);
        kept.push(row);
        if (kept.length >= query.limit) break;
      }
      if (kept.length === 0) return [];
      const rows = this.#db.all<HitRow>(
        `SELECT e.id, e.url, e.host, e.time, e.page_key, e.job_id,
           snippet(search_text, 2, '', '', '…', ${SNIPPET_WORDS}) AS snippet,
           search_text.title, search_text.description, search_text.text
         FROM search_text JOIN search_entries e ON e.doc_id = search_text.rowid
         WHERE search_text MATCH ? AND e.id IN (${kept.map(() => '?').join(', ')})`,
        params[0]!,
        ...kept.map((row) => row.id),
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return kept.flatMap(({ id, score }) => {
        const row = byId.get(id);
        return row ? [toHit(row, score)] : [];
      });
    });
  }

  count(): Promise<number> {
    return this.#db.use(() => this.#db.get<{ n: number }>('SELECT count(*) AS n FROM search_entries')!.n);
  }
}

function toHit(row: HitRow, score: number): SearchHit {
  const hit: SearchHit = {
    url: row.url,
    title: row.title,
    description: row.description,
    snippet: (row.snippet || row.description).replace(/\s+/g, ' ').trim(),
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
