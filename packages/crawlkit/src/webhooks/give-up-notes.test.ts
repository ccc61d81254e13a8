import { describe, expect, it } from 'vitest';

import { GiveUpNotes } from './give-up-notes.js';

describe('GiveUpNotes', () => {
  it('tells a job once a minute at most, counting the events given up in between; each job on its own', () => {
    const lines: string[] = [];
    const notes = new GiveUpNotes((message) => void lines.push(message));
    notes.tell('a', 'first', 0);
    notes.tell('a', 'second', 1_000);
    notes.tell('b', 'other job', 2_000);
    notes.tell('a', 'third', 59_999);
    notes.tell('a', 'fourth', 60_000);
    notes.tell('a', 'fifth', 61_000);
    expect(lines).toEqual([
      "Job a: first (each is in the job's errors, code WEBHOOK_DELIVERY_FAILED)",
      "Job b: other job (each is in the job's errors, code WEBHOOK_DELIVERY_FAILED)",
      "Job a: fourth; 2 more of its events were given up since the last warning (each is in the job's errors, code WEBHOOK_DELIVERY_FAILED)",
    ]);
  });
});
