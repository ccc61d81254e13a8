import { setImmediate } from 'node:timers';

/**
 * Resolves after the event loop's next turn (`setImmediate`): long loops on the main thread await it between slices,
 * so that timers (lease renewals, webhooks) and other pages' I/O run in between.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
