/**
 * The code of the WAL checkpointer's thread (`wal-checkpointer.ts`), as the text a `Worker` evaluates: a thread started
 * from a file would need that file found beside the store's modules, which a bundle of the app (webpack, esbuild)
 * does not keep. It uses Node's modules only.
 *
 * On each message `checkpoint` it runs `PRAGMA wal_checkpoint(RESTART)` on a connection of its own to the file
 * (`workerData.path`) and answers `done`; on `stop` it closes that connection and ends. `RESTART`, not `PASSIVE`: a
 * passive checkpoint copies while the other thread goes on committing, and the log starts again from its beginning
 * only when a commit begins with all of it copied back, which a commit landing during the copy prevents; in a
 * batch the log then grew to the committing connection's safety size (16 MB), where that connection checkpointed
 * on its own thread again. `RESTART` holds off writers while it copies (their writes wait for the lock, with
 * timers), so the next commit starts the log again, as after SQLite's own checkpoint (perf37i in bench/README.md).
 */
export const CHECKPOINTER_THREAD = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
// Node 22 warns when node:sqlite is first loaded in a thread: nothing else runs here meanwhile.
const emitWarning = process.emitWarning;
process.emitWarning = () => {};
const { DatabaseSync } = require('node:sqlite');
process.emitWarning = emitWarning;
const db = new DatabaseSync(workerData.path);
// How long the checkpoint waits for a commit under way, then for readers to leave the log (another process's write
// waits meanwhile): past it, it has copied what it could, as a passive one, and the log starts again later.
db.exec('PRAGMA busy_timeout = 100');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(RESTART)');
parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  checkpoint.get();
  parentPort.postMessage('done');
});
`;
