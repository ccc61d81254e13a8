/**
 * Another process holding a SQLite store's write lock, as a `crawlkit cache vacuum` or a second crawlkit's long write
 * does: a child of the same Node that opens the file with `node:sqlite`, runs `BEGIN IMMEDIATE` and keeps the
 * transaction open until it is let go (or its time runs out), then rolls back and exits.
 */
import { spawn } from 'node:child_process';

/** The child's program: argv[1] the database file, argv[2] the longest it holds the lock (ms). */
const HOLDER = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1]);
db.exec('PRAGMA busy_timeout = 10000');
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
const letGo = () => { db.exec('ROLLBACK'); db.close(); process.exit(0); };
setTimeout(letGo, Number(process.argv[2]));
process.stdin.on('data', letGo);
process.stdin.on('end', letGo);
`;

export interface WriteLockHolder {
  /** Lets the lock go and resolves once the child has exited. */
  release(): Promise<void>;
  /** Resolves once the child has exited (its time ran out, or `release`). */
  readonly exited: Promise<void>;
}

/** Resolves once a child process holds the write lock of the SQLite file at `path`, for `maxMs` at most. */
export async function holdWriteLock(path: string, maxMs = 60_000): Promise<WriteLockHolder> {
  const child = spawn(process.execPath, ['--no-warnings', '-e', HOLDER, path, String(maxMs)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before locking: ${stderr}`)));
  });
  return {
    exited,
    release: async () => {
      child.stdin.end('go\n');
      await exited;
    },
  };
}
