import type { JobStore, Store, TaskInput, TaskStore, WorkItem, WorkQueue } from '@crawlkit/store';

/** Work items of newly added tasks. */
export function workItems(jobId: string, tasks: readonly TaskInput[]): WorkItem[] {
  return tasks.map((task) => ({ ...task, jobId, attempt: 0 }));
}

/** `target` with some methods replaced; every other member is the target's own, bound to it. */
function withOverrides<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

/**
 * The shared store as the engine sees it in distributed mode: every task added to a job (at creation, by a crawl's
 * discovery) is also put on the work queue, where workers take it.
 *
 * A process that dies between the store write and the enqueue leaves queued tasks off the queue; the workers'
 * sweep puts them back (see `TaskWorker`).
 */
export function queueingStore(store: Store, queue: WorkQueue): Store {
  const jobs = withOverrides<JobStore>(store.jobs, {
    create: async (job, tasks) => {
      await store.jobs.create(job, tasks);
      // De-duplicated as the store does: the first of each key.
      const seen = new Set<string>();
      await queue.enqueue(
        workItems(
          job.id,
          tasks.filter((t) => !seen.has(t.key) && seen.add(t.key)),
        ),
      );
    },
  });
  const tasks = withOverrides<TaskStore>(store.tasks, {
    add: async (jobId, inputs, options) => {
      const added = await store.tasks.add(jobId, inputs, options);
      if (added.length) await queue.enqueue(workItems(jobId, added));
      return added;
    },
  });
  return withOverrides<Store>(store, { jobs, tasks });
}
