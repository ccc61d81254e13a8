// The V8 heap statistics of every worker thread of the process after a full collection of its heap: a heap snapshot
// collects first (`worker.getHeapSnapshot()`), so its statistics read afterwards are what the thread keeps live.
//
//   const collected = workerStatsAfterCollection();   // subscribes to new worker threads: before the engine starts
//   const stats = await collected();
import { subscribe } from 'node:diagnostics_channel';
import type { HeapInfo } from 'node:v8';
import type { Worker } from 'node:worker_threads';

export function workerStatsAfterCollection(): () => Promise<HeapInfo[]> {
  const workers = new Set<Worker>();
  subscribe('worker_threads', (message) => {
    const { worker } = message as { worker: Worker };
    worker.once('online', () => workers.add(worker));
    worker.once('exit', () => workers.delete(worker));
  });
  return async () => {
    const out: HeapInfo[] = [];
    for (const worker of workers) {
      try {
        const stream = await worker.getHeapSnapshot();
        for await (const _ of stream) void _;
        out.push(await worker.getHeapStatistics());
      } catch {
        // the thread stopped meanwhile
      }
    }
    return out;
  };
}
