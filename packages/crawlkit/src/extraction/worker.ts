/** The entry of the extraction pool's worker threads (loaded by piscina). */
import { parentPort, threadId } from 'node:worker_threads';

import { settleTask, type ExtractionTask, type TaskOutcome } from './tasks.js';

/** The message a worker sends when it starts a task: the pool's time budgets count from it. */
export interface StartedMessage {
  crawlkitTaskStarted: number;
  threadId: number;
}

export default async function run(message: { id: number; task: ExtractionTask }): Promise<TaskOutcome> {
  parentPort?.postMessage({ crawlkitTaskStarted: message.id, threadId } satisfies StartedMessage);
  return settleTask(message.task);
}
