import { describe, expect, it } from 'vitest';
import { describeStoreConformance } from '../conformance.js';
import { createMemoryStore } from './memory-store.js';

describeStoreConformance('memory', (options) => createMemoryStore(options));

describe('createMemoryStore', () => {
  it('is ephemeral and named memory', () => {
    const store = createMemoryStore();
    expect(store.kind).toBe('memory');
    expect(store.ephemeral).toBe(true);
  });

  it('rejects invalid options with INVALID_OPTION', () => {
    expect(() => createMemoryStore({ maxPageBytes: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('maxPageBytes') }),
    );
    expect(() => createMemoryStore({ maxHistoryPerUrl: 0 })).toThrow(/maxHistoryPerUrl/);
    expect(() => createMemoryStore({ maxPageBytes: Infinity })).not.toThrow();
  });
});
