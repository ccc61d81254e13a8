import { randomUUID } from 'node:crypto';

import { v5 } from 'uuid';
import { describe, expect, it } from 'vitest';

import { uuidV5 } from './uuid-v5.js';

describe('uuidV5', () => {
  it("makes the uuid package's v5 of the same name and namespace", () => {
    // RFC 9562's example: "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
    const names = ['', 'check\n1', 'schedule.change\nhttps://example.com/é', '日本語\n🙂', 'x'.repeat(5000)];
    for (let i = 0; i < 200; i++) {
      const namespace = i % 2 ? randomUUID() : randomUUID().toUpperCase();
      const name = names[i % names.length]! + String(i);
      expect(uuidV5(name, namespace)).toBe(v5(name, namespace));
    }
  });

  it('refuses a namespace that is not a UUID, as the package does', () => {
    expect(() => uuidV5('a', 'not-a-uuid')).toThrow(TypeError);
    expect(() => v5('a', 'not-a-uuid')).toThrow(TypeError);
  });
});
