/** Stable codes of the store's errors. Match on `error.code`, not on the class. */
export type StoreErrorCode =
  | 'STORE_CLOSED'
  | 'STORE_JOB_EXISTS'
  | 'STORE_JOB_NOT_FOUND'
  | 'STORE_TASK_NOT_FOUND'
  | 'STORE_DELIVERY_EXISTS'
  | 'STORE_BUSY'
  | 'STORE_CORRUPT'
  | 'STORE_SCHEMA_TOO_NEW'
  | 'STORE_OPEN_FAILED'
  | 'STORE_MIGRATION_COPY_FAILED'
  | 'STORE_IO'
  | 'STORE_SECRET_KEY_MISSING'
  | 'STORE_SECRET_UNREADABLE';

const BRAND = Symbol.for('crawlkit.store-error');

/** Base class of every error the store throws. `cause` holds the driver's own error when there is one. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  readonly [BRAND] = true;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}

/** A method was called after `close()`. */
export class StoreClosedError extends StoreError {
  constructor() {
    super('STORE_CLOSED', 'The store is closed.');
    this.name = 'StoreClosedError';
  }
}

/** `jobs.create` with an id that already exists. */
export class JobExistsError extends StoreError {
  readonly jobId: string;

  constructor(jobId: string) {
    super('STORE_JOB_EXISTS', `A job with id ${jobId} already exists.`);
    this.name = 'JobExistsError';
    this.jobId = jobId;
  }
}

/** A task operation named a job the store does not hold. */
export class JobNotFoundError extends StoreError {
  readonly jobId: string;

  constructor(jobId: string) {
    super('STORE_JOB_NOT_FOUND', `No job with id ${jobId}.`);
    this.name = 'JobNotFoundError';
    this.jobId = jobId;
  }
}

/** `tasks.complete` named a key that was never added to the job. */
export class TaskNotFoundError extends StoreError {
  readonly jobId: string;
  readonly key: string;

  constructor(jobId: string, key: string) {
    super('STORE_TASK_NOT_FOUND', `Job ${jobId} has no task with key ${key}.`);
    this.name = 'TaskNotFoundError';
    this.jobId = jobId;
    this.key = key;
  }
}

/** `deliveries.enqueue` with an id that already exists. */
export class DeliveryExistsError extends StoreError {
  readonly deliveryId: string;

  constructor(deliveryId: string) {
    super('STORE_DELIVERY_EXISTS', `A delivery with id ${deliveryId} already exists.`);
    this.name = 'DeliveryExistsError';
    this.deliveryId = deliveryId;
  }
}

/** Another process held the database lock for longer than the store's busy timeout. */
export class StoreBusyError extends StoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('STORE_BUSY', message, options);
    this.name = 'StoreBusyError';
  }
}

/** The database file is damaged or is not a crawlkit store. */
export class StoreCorruptError extends StoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('STORE_CORRUPT', message, options);
    this.name = 'StoreCorruptError';
  }
}

/** The database was written by a newer crawlkit whose schema this version does not know. */
export class StoreSchemaTooNewError extends StoreError {
  readonly found: number;
  readonly supported: number;

  /** The copy of the file taken before it was migrated, which this version opens (SQLite), when there is one. */
  readonly copy: string | undefined;

  /**
   * `message` says it of another store than a SQLite file (a Redis deployment's layout). `copy` (a SQLite file's):
   * the copy taken before the migration (`crawlkit.db.schema-12.bak`), named as what to put back.
   */
  constructor(found: number, supported: number, message?: string, copy?: string) {
    super(
      'STORE_SCHEMA_TOO_NEW',
      message ??
        `The store has schema version ${found}, newer than the ${supported} this version of @crawlkit/store supports: ` +
          'a newer crawlkit migrated it, and nothing was read or written. Install that crawlkit again (upgrade); to ' +
          (copy
            ? `roll back, put back the copy it took before migrating, ${copy} (with no process on the store: remove ` +
              'the -wal and -shm files beside the store, then move the copy in its place)'
            : 'roll back, put back the copy of the store taken before the upgrade') +
          '; or use another store directory.',
    );
    this.name = 'StoreSchemaTooNewError';
    this.found = found;
    this.supported = supported;
    this.copy = copy;
  }
}

/** Whether `error` is a store error, also across duplicated copies of this package. */
export function isStoreError(error: unknown): error is StoreError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

/** `value` if it is an Error, else a `StoreError` describing it (for rejections, which must carry an Error). */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new StoreError('STORE_IO', `Non-error thrown: ${String(value)}`);
}
