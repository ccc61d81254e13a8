/** Work loops shared by the child processes of the concurrency and crash tests and by the tests themselves. */
import type { Store, TaskInput } from '../types.ts';

export function taskFor(i: number, depth: number): TaskInput {
  return { key: `k${i}`, url: `https://example.com/p/${i}`, depth };
}

/** A small deterministic PRNG (mulberry32), so a failing run can be replayed from its seed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A crawl-shaped loop: task `k{i}` "discovers" `k{2i+1}` and `k{2i+2}` (below `total`), which are added before the
 * task is completed, exactly like crawlkit's runner. Also writes a cached page per task so page totals and
 * automatic eviction are exercised. Calls `onCompleted` with the running count after each new completion. Returns
 * when the job has nothing queued or active.
 */
export async function crawlTree(
  store: Store,
  jobId: string,
  total: number,
  rand: () => number,
  onCompleted?: (completed: number) => void | Promise<void>,
): Promise<number> {
  let completed = 0;
  for (;;) {
    const claimed = await store.tasks.claim(jobId, 1 + Math.floor(rand() * 4));
    if (claimed.length === 0) {
      const counts = await store.tasks.counts(jobId);
      if (counts.queued === 0 && counts.active === 0) return completed;
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    for (const task of claimed) {
      const i = Number(task.key.slice(1));
      const found = [2 * i + 1, 2 * i + 2].filter((j) => j < total).map((j) => taskFor(j, task.depth + 1));
      if (found.length > 0) await store.tasks.add(jobId, found, { limit: total });
      const body = 'x'.repeat(500 + Math.floor(rand() * 8_000));
      await store.pages.put({ key: `page:${task.key}`, url: task.url, cachedAt: Date.now(), value: body });
      const outcome = await store.tasks.complete(jobId, {
        key: task.key,
        credits: 1,
        document: JSON.stringify({ key: task.key, body }),
      });
      if (outcome.duplicate) continue;
      completed++;
      await onCompleted?.(completed);
    }
  }
}
