/** The entry of the extraction pool's worker threads (loaded by piscina). */
import { parentPort, threadId } from 'node:worker_threads';

import { settleCall, type CallReply, type ExtractionCall } from './calls.js';

/** The message a worker sends when it starts a call: the pool's time budgets count from it. */
export interface StartedMessage {
  crawlkitCallStarted: number;
  threadId: number;
}

export default async function run(message: { id: number; call: ExtractionCall }): Promise<CallReply> {
  parentPort?.postMessage({ crawlkitCallStarted: message.id, threadId } satisfies StartedMessage);
  return settleCall(message.call);
}
