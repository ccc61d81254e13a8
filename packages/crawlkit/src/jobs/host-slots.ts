import type { HostPoliteness } from '@crawlkit/frontier';
import type { Coordination } from '@crawlkit/store';

import type { HostSlots } from './task-execution.js';

const unpaced: HostSlots = { take: () => 0, pause: () => undefined, sent: () => undefined };

/** Host slots kept by the job's own `HostPoliteness`: one process drives the job. */
export function localHostSlots(politeness: HostPoliteness | undefined): HostSlots {
  if (!politeness) return unpaced;
  return {
    take: (url) => politeness.reserve(url),
    pause: (url, waitMs) => politeness.pause(url, waitMs),
    sent: (url) => politeness.sent(url),
    restingFor: (url) => politeness.restingFor(url),
  };
}

/**
 * Host slots shared by every worker of a cluster, timed by the backend's clock: the job's `HostPoliteness` says the
 * spacing, the backend keeps when each host is free again. A rest begun after a slot was taken is not seen as the
 * request leaves (that would wait on the backend): a worker sees it when it takes its next slot.
 */
export function sharedHostSlots(
  coordination: Coordination,
  jobId: string,
  politeness: HostPoliteness | undefined,
): HostSlots {
  if (!politeness) return unpaced;
  return {
    take: (url) => coordination.takeHostSlot(jobId, hostOf(url), politeness.spacing(url)),
    pause: (url, waitMs) => coordination.pauseHost(jobId, hostOf(url), waitMs),
    sent: (url) => {
      const spacing = politeness.spacing(url);
      // Not awaited: the request must not wait for Redis. A failure leaves the slot's own spacing in place.
      if (spacing > 0) coordination.pauseHost(jobId, hostOf(url), spacing).catch(() => undefined);
    },
  };
}

function hostOf(url: string): string {
  return new URL(url).host.toLowerCase();
}
