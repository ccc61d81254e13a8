/**
 * What the schedule tests share (schedules.test.ts, schedule-restart.test.ts): a webhook receiver for the file, a
 * changing site of three pages, and the schedule changes the receiver got for a crawl job. Builds the workspace first:
 * the restart case's child runs on it.
 */
import type { ScheduleChangePayload } from 'crawlkit';
import { afterAll, beforeAll } from 'vitest';

import { startChangingSite, type ChangingSite } from '../../fixtures/changing-site.ts';
import { ensureBuilt } from '../cli-helpers.ts';
import { startReceiver, type Receiver } from '../helpers-batch.ts';

export const day = Date.UTC(2026, 0, 1);

export async function freshSite(): Promise<ChangingSite> {
  return startChangingSite({
    '/stable.html': { title: 'Stable', text: 'This page never changes.', modifiedAt: day },
    '/edited.html': { title: 'Edited', text: 'First version of the text.', modifiedAt: day },
    '/deleted.html': { title: 'Deleted', text: 'Soon gone.', modifiedAt: day },
  });
}

/**
 * Registers the file's `beforeAll`/`afterAll` that start the receiver (handed to `started`) and close it; returns
 * `changesOf`, which reads it.
 */
export function useScheduleReceiver(started: (receiver: Receiver) => void) {
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    ensureBuilt();
    receiver = await startReceiver();
    started(receiver);
  });
  afterAll(async () => {
    await receiver?.close();
  });
  return {
    /** The schedule webhooks received for a crawl job, as `path: change`. */
    changesOf: (jobId: string): Record<string, string> => {
      const events = receiver!.events
        .map((e) => e.payload as unknown as ScheduleChangePayload)
        .filter((p) => p.type === 'schedule.change' && p.jobId === jobId);
      return Object.fromEntries(events.map((p) => [new URL(p.data[0].url).pathname, p.data[0].change]));
    },
  };
}
