import { StoreCorruptError, StoreSchemaTooNewError } from '../errors.js';
import type { SqliteDatabase } from './database.js';

export interface Migration {
  version: number;
  /** What the step changes, for humans reading `schema_migrations`. */
  description: string;
  sql: string;
}

/**
 * Ordered schema steps. Never edit a released step: append a new one. Each runs in the same transaction as the
 * bump of `schema_migrations`, so a crash mid-migration leaves the previous version intact.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'pages, jobs, tasks, results, errors, robots, deliveries, history',
    sql: `
      CREATE TABLE pages (
        key TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        cached_at INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        value TEXT NOT NULL
      );
      CREATE INDEX pages_url ON pages (url);
      CREATE INDEX pages_cached_at ON pages (cached_at);

      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        request TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        completed_at INTEGER,
        expires_at INTEGER,
        credits_used REAL NOT NULL DEFAULT 0,
        error TEXT,
        lease_owner TEXT,
        lease_until INTEGER NOT NULL DEFAULT 0,
        task_seq INTEGER NOT NULL DEFAULT 0,
        result_seq INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX jobs_created ON jobs (created_at);
      CREATE INDEX jobs_expires ON jobs (expires_at) WHERE expires_at IS NOT NULL;

      CREATE TABLE tasks (
        job_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        key TEXT NOT NULL,
        url TEXT NOT NULL,
        depth INTEGER NOT NULL,
        meta TEXT,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        not_before INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (job_id, seq)
      ) WITHOUT ROWID;
      CREATE UNIQUE INDEX tasks_key ON tasks (job_id, key);
      CREATE INDEX tasks_state ON tasks (job_id, state, seq);

      CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        job_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        key TEXT NOT NULL,
        document TEXT NOT NULL
      );
      CREATE UNIQUE INDEX results_seq ON results (job_id, seq);

      CREATE TABLE errors (
        id INTEGER PRIMARY KEY,
        job_id TEXT NOT NULL,
        uid TEXT NOT NULL,
        url TEXT NOT NULL,
        code TEXT,
        error TEXT NOT NULL,
        timestamp INTEGER NOT NULL
      );
      CREATE INDEX errors_job ON errors (job_id);

      CREATE TABLE robots_blocked (
        id INTEGER PRIMARY KEY,
        job_id TEXT NOT NULL,
        url TEXT NOT NULL
      );
      CREATE UNIQUE INDEX robots_blocked_url ON robots_blocked (job_id, url);

      CREATE TABLE deliveries (
        id TEXT PRIMARY KEY,
        job_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        payload TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT
      );
      CREATE UNIQUE INDEX deliveries_seq ON deliveries (job_id, seq);

      CREATE TABLE history (
        id INTEGER PRIMARY KEY,
        url TEXT NOT NULL,
        tag TEXT NOT NULL,
        scraped_at INTEGER NOT NULL,
        value TEXT NOT NULL
      );
      CREATE INDEX history_url ON history (url, tag, scraped_at);
    `,
  },
  {
    version: 2,
    description: 'O(1) page totals (triggers) and per-job task counts; covering indexes for claim and due deliveries',
    sql: `
      CREATE TABLE page_totals (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        entries INTEGER NOT NULL,
        bytes INTEGER NOT NULL
      );
      INSERT INTO page_totals (id, entries, bytes) SELECT 1, count(*), coalesce(sum(bytes), 0) FROM pages;
      CREATE TRIGGER pages_after_insert AFTER INSERT ON pages BEGIN
        UPDATE page_totals SET entries = entries + 1, bytes = bytes + NEW.bytes WHERE id = 1;
      END;
      CREATE TRIGGER pages_after_delete AFTER DELETE ON pages BEGIN
        UPDATE page_totals SET entries = entries - 1, bytes = bytes - OLD.bytes WHERE id = 1;
      END;
      CREATE TRIGGER pages_after_update AFTER UPDATE OF bytes ON pages BEGIN
        UPDATE page_totals SET bytes = bytes - OLD.bytes + NEW.bytes WHERE id = 1;
      END;

      ALTER TABLE jobs ADD COLUMN queued INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN active INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN done INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE jobs ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
      UPDATE jobs SET
        queued = (SELECT count(*) FROM tasks WHERE job_id = jobs.id AND state = 'queued'),
        active = (SELECT count(*) FROM tasks WHERE job_id = jobs.id AND state = 'active'),
        done = (SELECT count(*) FROM tasks WHERE job_id = jobs.id AND state = 'done'),
        failed = (SELECT count(*) FROM tasks WHERE job_id = jobs.id AND state = 'failed');
      DROP INDEX tasks_state;
      CREATE INDEX tasks_state ON tasks (job_id, state, seq, not_before);
      CREATE INDEX deliveries_pending ON deliveries (job_id, seq, next_attempt_at) WHERE state = 'pending';
    `,
  },
  {
    version: 3,
    description: "jobs.stored_bytes: the UTF-8 bytes of a job's stored documents, for the per-job store budget",
    sql: `
      ALTER TABLE jobs ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE jobs SET stored_bytes = (
        SELECT coalesce(sum(length(CAST(document AS BLOB))), 0) FROM results WHERE job_id = jobs.id
      );
    `,
  },
  {
    version: 4,
    description:
      'host_engines: per job and host, pages that held their content in the HTML and pages that needed the browser',
    sql: `
      CREATE TABLE host_engines (
        job_id TEXT NOT NULL,
        host TEXT NOT NULL,
        http INTEGER NOT NULL,
        browser INTEGER NOT NULL,
        PRIMARY KEY (job_id, host)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 5,
    description: "pages.body: a page's bytes kept beside its value, undecoded",
    sql: `ALTER TABLE pages ADD COLUMN body BLOB;`,
  },
  {
    version: 6,
    description: 'counters: named numbers shared by the processes of the store (credits of a creditLimit)',
    sql: `CREATE TABLE counters (name TEXT PRIMARY KEY, value REAL NOT NULL) WITHOUT ROWID;`,
  },
  {
    version: 7,
    description:
      'search index: search_entries (one per page cache entry or job result with text), search_docs (each text once, ' +
      'counted), search_text (FTS5) and search_pending (texts not yet written to FTS5, batched); triggers take the ' +
      'text out with the page or result',
    sql: `
      CREATE TABLE search_docs (
        id INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,
        refs INTEGER NOT NULL
      );
      CREATE VIRTUAL TABLE search_text USING fts5(
        title, description, text, tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TABLE search_pending (
        doc_id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        text TEXT NOT NULL
      );
      CREATE TABLE search_entries (
        id INTEGER PRIMARY KEY,
        page_key TEXT UNIQUE,
        job_id TEXT,
        seq INTEGER,
        url TEXT NOT NULL,
        host TEXT NOT NULL,
        time INTEGER NOT NULL,
        doc_id INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX search_entries_result ON search_entries (job_id, seq) WHERE job_id IS NOT NULL;
      CREATE INDEX search_entries_doc ON search_entries (doc_id);
      CREATE TRIGGER search_entries_after_delete AFTER DELETE ON search_entries BEGIN
        UPDATE search_docs SET refs = refs - 1 WHERE id = OLD.doc_id;
        DELETE FROM search_text WHERE rowid = OLD.doc_id AND (SELECT refs FROM search_docs WHERE id = OLD.doc_id) = 0;
        DELETE FROM search_pending WHERE doc_id = OLD.doc_id AND (SELECT refs FROM search_docs WHERE id = OLD.doc_id) = 0;
        DELETE FROM search_docs WHERE id = OLD.doc_id AND refs = 0;
      END;
      CREATE TRIGGER pages_search_after_delete AFTER DELETE ON pages BEGIN
        DELETE FROM search_entries WHERE page_key = OLD.key;
      END;
      CREATE TRIGGER results_search_after_delete AFTER DELETE ON results BEGIN
        DELETE FROM search_entries WHERE job_id = OLD.job_id AND seq = OLD.seq;
      END;
    `,
  },
  {
    version: 8,
    description: 'schedules: recurring crawls and scrapes, with the time of their next firing',
    sql: `
      CREATE TABLE schedules (
        id TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        next_run_at INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 9,
    description:
      'search index: texts kept once, in search_content (the FTS5 table search_text indexes it as external content ' +
      'instead of holding a second copy); search_unindexed lists the texts not yet written to FTS5 (batched)',
    sql: `
      CREATE TABLE search_content (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        text TEXT NOT NULL
      );
      INSERT INTO search_content (id, title, description, text) SELECT rowid, title, description, text FROM search_text;
      INSERT INTO search_content (id, title, description, text) SELECT doc_id, title, description, text FROM search_pending;
      CREATE TABLE search_unindexed (doc_id INTEGER PRIMARY KEY);
      DROP TRIGGER search_entries_after_delete;
      DROP TABLE search_pending;
      DROP TABLE search_text;
      CREATE VIRTUAL TABLE search_text USING fts5(
        title, description, text, content = 'search_content', content_rowid = 'id',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      INSERT INTO search_text (search_text) VALUES ('rebuild');
      CREATE TRIGGER search_entries_after_delete AFTER DELETE ON search_entries BEGIN
        UPDATE search_docs SET refs = refs - 1 WHERE id = OLD.doc_id;
        INSERT INTO search_text (search_text, rowid, title, description, text)
          SELECT 'delete', c.id, c.title, c.description, c.text FROM search_content c
          WHERE c.id = OLD.doc_id
            AND (SELECT refs FROM search_docs WHERE id = OLD.doc_id) = 0
            AND NOT EXISTS (SELECT 1 FROM search_unindexed WHERE doc_id = OLD.doc_id);
        DELETE FROM search_unindexed
          WHERE doc_id = OLD.doc_id AND (SELECT refs FROM search_docs WHERE id = OLD.doc_id) = 0;
        DELETE FROM search_content
          WHERE id = OLD.doc_id AND (SELECT refs FROM search_docs WHERE id = OLD.doc_id) = 0;
        DELETE FROM search_docs WHERE id = OLD.doc_id AND refs = 0;
      END;
    `,
  },
  {
    version: 10,
    description: "search index: search_entries by URL and time, for each URL's newest entry (a page's current text)",
    sql: `CREATE INDEX search_entries_url ON search_entries (url, time);`,
  },
  {
    version: 11,
    description:
      'search index: search_text holds the terms crawlkit makes (pairs of characters for Chinese, Japanese, Korean, ' +
      'Thai...), contentless; every text is listed in search_unindexed to be indexed again',
    sql: `
      DROP TRIGGER search_entries_after_delete;
      DROP TABLE search_text;
      CREATE VIRTUAL TABLE search_text USING fts5(
        title, description, text, content = '', contentless_delete = 1,
        tokenize = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'"
      );
      INSERT OR IGNORE INTO search_unindexed (doc_id) SELECT id FROM search_content;
      CREATE TRIGGER search_entries_after_delete AFTER DELETE ON search_entries BEGIN
        UPDATE search_docs SET refs = refs - 1 WHERE id = OLD.doc_id;
        DELETE FROM search_text
          WHERE rowid = OLD.doc_id AND (SELECT refs FROM search_docs WHERE id = OLD.doc_id) = 0;
        DELETE FROM search_unindexed
          WHERE doc_id = OLD.doc_id AND (SELECT refs FROM search_docs WHERE id = OLD.doc_id) = 0;
        DELETE FROM search_content
          WHERE id = OLD.doc_id AND (SELECT refs FROM search_docs WHERE id = OLD.doc_id) = 0;
        DELETE FROM search_docs WHERE id = OLD.doc_id AND refs = 0;
      END;
    `,
  },
  {
    version: 12,
    description:
      'search index: the terms keep the marks that spell a Thai, Lao, Khmer, Burmese or Indic word (ไข่ an egg, ไข้ a ' +
      'fever); every text is listed in search_unindexed to be indexed again',
    // A new, empty FTS5 table (the trigger that deletes from it reads it by name when it runs)
    sql: `
      DROP TABLE search_text;
      CREATE VIRTUAL TABLE search_text USING fts5(title, description, text, content = '', contentless_delete = 1,
        tokenize = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'");
      INSERT OR IGNORE INTO search_unindexed (doc_id) SELECT id FROM search_content;
    `,
  },
  {
    version: 13,
    description:
      "crawl folding: what each claimed key holds (a page's main-content hash and the task that said it), per job",
    sql: `
      CREATE TABLE aliases (
        job_id TEXT NOT NULL,
        key TEXT NOT NULL,
        hash TEXT NOT NULL,
        by_key TEXT NOT NULL,
        PRIMARY KEY (job_id, key)
      ) WITHOUT ROWID;
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The schema version of the database, 0 when it has none yet. */
export function schemaVersion(db: SqliteDatabase): number {
  const table = db.get<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
  );
  if (!table) return 0;
  return db.get<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations')?.version ?? 0;
}

/**
 * Brings the database to `target` (default: the latest version) in one `BEGIN IMMEDIATE` transaction, so two
 * processes opening the same new store do not both migrate it. Refuses a database of a newer schema and a
 * non-empty database that is not a crawlkit store. Returns the version the database had (0: it was new).
 */
export function migrate(db: SqliteDatabase, target = LATEST_VERSION, now = Date.now()): number {
  return db.write(() => {
    const current = schemaVersion(db);
    if (current > LATEST_VERSION) throw new StoreSchemaTooNewError(current, LATEST_VERSION);
    if (current === 0) {
      const other = db.get<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' LIMIT 1",
      );
      if (other) {
        throw new StoreCorruptError(`The database is not a crawlkit store (it has a table \`${other.name}\`).`);
      }
      db.exec(
        'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at INTEGER NOT NULL)',
      );
    }
    for (const migration of MIGRATIONS) {
      if (migration.version <= current || migration.version > target) continue;
      db.exec(migration.sql);
      db.run(
        'INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)',
        migration.version,
        migration.description,
        now,
      );
    }
    return current;
  });
}
