/**
 * `@crawlkit/fetcher/warc`: reading WARC recordings, to replay them (the replay engine) or index them. Not in the
 * package's index, so that a process that never replays loads none of it; the writer, whose record builders load at
 * its first record, stays there (docs/decisions.md, "Lazy loading").
 */
export { ReplayEngine, truncationMessage } from './warc/replay-engine.js';
export type { ReplayEngineOptions, ReplayIndex } from './warc/replay-engine.js';
export { indexWarc } from './warc/warc-index.js';
export type { IndexedResponse, WarcFileIndex } from './warc/warc-index.js';
