/** The entry of the extraction pool's worker threads (loaded by piscina). */
import { parentPort, threadId, type MessagePort } from 'node:worker_threads';

import { loadPdfParse } from '@crawlkit/extractor';

import { claimStart } from './call-state.js';
import { epochNow, measureRun } from './call-times.js';
import { settleCall, type CallReply, type ExtractionCall } from './calls.js';
import { setProgressPort } from './pdf-progress.js';
import { fromWire, toWire } from './wire.js';

/** The message a worker sends when it starts a call: the pool's time budgets count from it. */
export interface StartedMessage {
  crawlkitCallStarted: number;
  threadId: number;
  /** When, in ms since the epoch (`performance.timeOrigin + performance.now()`, comparable across threads). */
  startedAt: number;
}

/** What the pool sends a worker for a call. */
export interface CallMessage {
  id: number;
  call: ExtractionCall;
  /** `call-state.ts`: whether the call started, shared with the pool. */
  state: Int32Array;
  /** Where a PDF call posts its pages as it reads them (`pdf-progress.ts`). */
  progress?: MessagePort;
}

/** The answer to a call cancelled before it started (the pool no longer waits for it). */
export const CANCELLED_REPLY: CallReply = { ok: false, name: 'AbortError', message: 'cancelled before it started' };

/**
 * The previous call's reply: a worker runs its calls one after the other. Two can arrive together (the pool sends one
 * ahead); without this chain the second would start between the first's end and its reply, and hold that reply back.
 */
let previous: Promise<unknown> = Promise.resolve();

export default function run(message: CallMessage): Promise<CallReply> {
  const reply = previous.then(() => start(message));
  // A call that failed must not fail the calls queued behind it.
  previous = reply.catch(() => undefined);
  return reply;
}

function start({ id, call, state, progress }: CallMessage): CallReply | Promise<CallReply> {
  if (!claimStart(state, threadId)) {
    progress?.close();
    return CANCELLED_REPLY;
  }
  const decoded = fromWire(call);
  // A thread's first PDF loads pdf.js (0.2 s on a quiet machine, over a second on a loaded one): that is not the
  // page's time, so the call is told started (its extraction budget, and the stop a second past it, count from then)
  // once it is loaded. Counted, it stopped a fresh worker under a small budget before the PDF's first page.
  if (decoded.kind === 'extract' && decoded.page.kind === 'pdf') {
    const begin = () => begun(id, decoded, progress);
    return loadPdfParse().then(begin, begin);
  }
  return begun(id, decoded, progress);
}

function begun(id: number, call: ExtractionCall, progress: MessagePort | undefined): Promise<CallReply> {
  const startedAt = epochNow();
  parentPort?.postMessage({ crawlkitCallStarted: id, threadId, startedAt } satisfies StartedMessage);
  setProgressPort(progress);
  return measureRun(() => settleCall(call)).then(({ value, run }) => {
    setProgressPort(undefined);
    progress?.close();
    return toWire({ ...value, run });
  });
}
