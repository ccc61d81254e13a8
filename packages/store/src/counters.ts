import type { CounterBounds } from './types.js';

/** Whether `value` is within `bounds` (the one rule of `CounterStore.add`, for every backend written in TypeScript). */
export function withinBounds(value: number, bounds: CounterBounds = {}): boolean {
  return (bounds.max === undefined || value <= bounds.max) && (bounds.min === undefined || value >= bounds.min);
}
