export { documentBytes, isFullStore } from './types.js';
export { createMemoryStore } from './memory/memory-store.js';
export type { MemoryStoreOptions } from './memory/memory-store.js';
export { createSqliteStore } from './sqlite/sqlite-store.js';
export { sqliteSchemaVersion } from './sqlite/schema-version.js';
export type { SqliteSchemaVersion } from './sqlite/schema-version.js';
export { isSealed, keyFileSecretBox, memorySecretBox, missingSecretBox, parseSecretKey, secretBox } from './secrets.js';
export type { SecretBox } from './secrets.js';
export type { SqliteStore, SqliteStoreOptions, StoreWarning } from './sqlite/sqlite-store.js';
export type { VacuumResult } from './sqlite/vacuum.js';
export {
  StoreError,
  StoreClosedError,
  JobExistsError,
  JobNotFoundError,
  TaskNotFoundError,
  DeliveryExistsError,
  StoreBusyError,
  StoreCorruptError,
  StoreSchemaTooNewError,
  isStoreError,
} from './errors.js';
export type { StoreErrorCode } from './errors.js';
export { nonNegativeInteger, positiveInteger, nonEmptyString, oneOf } from './options.js';
export { InvalidOptionError, isInvalidOptionError } from '@crawlkit/options';
export { engineStoreLimits } from './engine-counts.js';
export { parseSearchQuery, MAX_QUERY_LENGTH, MAX_QUERY_TERMS } from './search/query.js';
export type { ParsedQuery, QueryTerm, SearchTerms } from './search/query.js';
export { hostMatches, searchHost } from './search/hosts.js';
export { newestOnly, searchPostings } from './search/postings.js';
export type { EntryMeta, Postings, PostingSource } from './search/postings.js';
export { countTerms, termCounts, searchableText } from './search/entry.js';
export { searchTextDigest, MAX_TEXT } from './text-digest.js';
export type { ColumnHits, TermCounts } from './search/entry.js';
export {
  STOP_WORDS,
  stem as searchStem,
  terms as searchTerms,
  wordWeight as searchWordWeight,
  words as searchWords,
} from './search/tokens.js';
export { bm25, inverseFrequency } from './search/ranking.js';
export { withinBounds } from './counters.js';
export { takeWithin } from './result-reads.js';
export { jobPatchEntries } from './job-patch.js';
export { newDelivery, statusRead } from './records.js';
export type {
  CachedPage,
  PageLookup,
  PageStore,
  JobKind,
  JobStatus,
  JobRecord,
  JobPatch,
  JobStoreFault,
  JobCounts,
  JobStatusRead,
  JobStore,
  TaskInput,
  TaskState,
  Task,
  TaskOutcome,
  TaskCompletion,
  TaskStore,
  AliasClaim,
  StoredResult,
  ResultReadOptions,
  JobError,
  ResultStore,
  DeliveryState,
  Delivery,
  DeliveryStore,
  HistoryEntry,
  HistoryPrune,
  HistoryStore,
  HostEngineStats,
  EngineStore,
  EngineStoreLimits,
  CounterBounds,
  CounterStore,
  ScheduleStore,
  StoredSchedule,
  Store,
  PageCache,
  StoreSpace,
  JobBackend,
  HistoryBackend,
  SearchIndex,
  SearchQuery,
  SearchHit,
  SearchText,
  CountedTerms,
} from './types.js';
export type {
  CrawlkitBackend,
  BackendConnection,
  WorkQueue,
  WorkQueueCounts,
  WorkItem,
  WorkAttempt,
  WorkHandler,
  WorkConsumer,
  Coordination,
} from './backend.js';
