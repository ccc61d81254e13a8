import { setTimeout } from 'node:timers';
import { retryDelay } from '@crawlkit/frontier';
import type { Task } from '@crawlkit/store';

import { changeFeedCacheStage, changeFeedStage } from '../changes/change-stage.js';
import { BEFORE_FETCH, FROM_FETCH } from '../scrape/run-scrape.js';
import type { ScrapeStage } from '../scrape/scrape-state.js';
import { EngineLearning } from './engine-learning.js';
import type { JobTasks } from './task-execution.js';

/**
 * The stages of a job's page: a direct scrape's, with the job's own between the cache lookup and the fetch (what
 * the job learned of the host's engine, then the host's slot, taken right before the request leaves) and the
 * engine learning after the fetch. A cache hit skips them: no request leaves. A crawl with a change feed takes cached
 * copies only once the site confirms them, and places the page in the feed last.
 */
export function jobScrapeStages(tasks: JobTasks, task: Task, retries = 0): readonly ScrapeStage[] {
  const [fetch, ...afterFetch] = FROM_FETCH;
  const learning = engineLearningStages(tasks, task.url);
  const changes = changeFeedStage(tasks.store, tasks.job, task);
  const feedCache = changeFeedCacheStage(tasks.job);
  return [
    ...(feedCache ? [feedCache] : []),
    ...BEFORE_FETCH,
    ...learning.before,
    hostSlotStage(tasks, task, retries),
    fetch!,
    ...learning.after,
    ...afterFetch,
    ...(changes ? [changes] : []),
  ];
}

/**
 * The host's slot for the task's fetch (a crawl's `delay`, robots `Crawl-delay`, a rest after 429/503), waited for in
 * place up to `maxInlineWaitMs`; a longer wait gives the page back to the job (`deferred`), and a task dropped
 * meanwhile (its job cancelled) is not fetched (`dropped`). The wait is no part of the page's `timeout`; a store
 * failure here is the job's, not the page's. The stage also hooks the fetch: a rest begun after the slot was taken
 * holds the request back as it leaves (`deferred` too), and a 429/503 answer rests the host at once.
 */
function hostSlotStage(tasks: JobTasks, task: Task, retries: number): ScrapeStage {
  return {
    name: 'host-slot',
    timed: false,
    failures: 'caller',
    async run(state) {
      if (state.page) return;
      const inline = tasks.maxInlineWaitMs ?? 0;
      for (;;) {
        const wait = await tasks.hosts.take(task.url);
        if (wait === 0) break;
        if (wait > inline) return { kind: 'deferred', retryInMs: wait };
        await new Promise((resolve) => setTimeout(resolve, wait));
        // Asked before the slot is taken, not after: between a slot and its request nothing may wait on the store,
        // or a slow answer would shorten the spacing the next holder of the host's slot sees.
        if (await tasks.dropped?.(task)) return { kind: 'dropped' };
      }
      // Called by the engine right before the request leaves. A rest the host began after the slot was taken (another
      // page's 429 answered meanwhile) holds the request back; else the spacing counts again from now.
      state.onRequestStart = () => {
        const rest = tasks.hosts.restingFor?.(task.url) ?? 0;
        if (rest > 0) {
          state.heldBackMs = rest;
          state.deadline.holdBack();
        } else tasks.hosts.sent(task.url);
      };
      // A 429/503 the job fetches again rests the host as soon as it answers, not once the page is judged and
      // extracted: the host's other pages coming due meanwhile would be sent into the refusal. Best effort (the task's
      // own rest follows once its scrape ends).
      state.onAnswer = (answer) => {
        const wait = retryDelay({ status: answer.status, retryAfter: answer.headers['retry-after'] }, retries);
        if (wait !== undefined) void Promise.resolve(tasks.hosts.pause(task.url, wait)).catch(() => undefined);
      };
      return undefined;
    },
  };
}

/**
 * What the job learned of the page's host, read before the fetch (`engineAdvice`), and what the fetch showed about
 * it, counted after (`EngineLearning`); only for `engine: 'auto'` without `fastMode`, and only for pages fetched.
 */
function engineLearningStages(tasks: JobTasks, url: string): { before: ScrapeStage[]; after: ScrapeStage[] } {
  const { ctx, planner } = tasks;
  const options = ctx.options.engineLearning;
  if (ctx.options.engine !== 'auto' || planner.scrapeOptions.fastMode || !options) return { before: [], after: [] };
  let learn: ((evidence: 'http' | 'browser') => Promise<void>) | undefined;
  const advise: ScrapeStage = {
    name: 'engine-advice',
    failures: 'caller',
    async run(state) {
      if (state.page) return;
      const page = await new EngineLearning(tasks.store, tasks.job.id, options).page(url);
      state.engineAdvice = page.advice;
      learn = page.learn;
    },
  };
  const record: ScrapeStage = {
    name: 'engine-learning',
    failures: 'caller',
    async run(state) {
      if (learn && state.engineEvidence) await learn(state.engineEvidence);
    },
  };
  return { before: [advise], after: [record] };
}
