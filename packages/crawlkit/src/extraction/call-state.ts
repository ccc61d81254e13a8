/**
 * Whether a call sent to a worker has started there, in memory both threads see. A worker holds its next call while
 * it runs one (the pool sends it ahead, so the worker never waits for the main thread between pages); a call that is
 * aborted before its worker starts it is cancelled here, and that worker, busy with another page, is left running.
 */
const QUEUED = 0;
const CANCELLED = 1;
const STARTED = 2;
/** Slot of the state; slot of the thread that started the call. */
const STATE = 0;
const THREAD = 1;

/** A new call's state: queued, on no thread. */
export function newCallState(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/** The worker's side: marks the call started on `threadId`; false when it was cancelled first (skip it). */
export function claimStart(state: Int32Array, threadId: number): boolean {
  Atomics.store(state, THREAD, threadId);
  return Atomics.compareExchange(state, STATE, QUEUED, STARTED) === QUEUED;
}

/** The pool's side: cancels a call its worker has not started; false when it has (or was cancelled before). */
export function cancelIfQueued(state: Int32Array): boolean {
  return Atomics.compareExchange(state, STATE, QUEUED, CANCELLED) === QUEUED;
}

/** The thread running the call, once it has started. */
export function startedOn(state: Int32Array): number | undefined {
  return Atomics.load(state, STATE) === STARTED ? Atomics.load(state, THREAD) : undefined;
}
