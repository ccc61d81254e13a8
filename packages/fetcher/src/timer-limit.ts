/**
 * The longest delay a Node timer takes, in milliseconds (about 24.8 days): a longer one fires at once, with a
 * `TimeoutOverflowWarning`. Every time limit a caller gives is at most this.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
