import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { COMPILE_AFTER, safeParse } from './cold-parse.js';

const schema = () =>
  z.strictObject({
    url: z.string(),
    limit: z.number().int().positive().default(10),
    scrapeOptions: z.object({ maxAge: z.number().optional(), formats: z.array(z.string()).default(['markdown']) }),
  });

describe('safeParse', () => {
  it("gives zod's own result, with defaults and issues, compiled or not", () => {
    const inputs: unknown[] = [
      { url: 'http://a.test/', scrapeOptions: { maxAge: 1 } },
      { url: 'http://a.test/', limit: 0, scrapeOptions: {} },
      { url: 'http://a.test/', scrapeOptions: {}, extra: true },
      { url: 3 },
      'not an object',
    ];
    const mine = schema();
    const theirs = schema();
    for (let round = 0; round < COMPILE_AFTER + 2; round++) {
      for (const input of inputs) {
        const a = safeParse(mine, input);
        const b = theirs.safeParse(input);
        expect(a.success).toBe(b.success);
        if (a.success && b.success) expect(a.data).toEqual(b.data);
        else expect(a.error?.issues).toEqual(b.error?.issues);
      }
    }
  });

  it("parses a schema's first COMPILE_AFTER inputs without zod's JIT, then with it", () => {
    const s = schema();
    const spy = vi.spyOn(s, 'safeParse');
    for (let i = 0; i < COMPILE_AFTER + 3; i++) safeParse(s, { url: 'http://a.test/', scrapeOptions: {} });
    const jitless = spy.mock.calls.map((call) => call[1]?.jitless === true);
    expect(jitless.slice(0, COMPILE_AFTER).every(Boolean)).toBe(true);
    expect(jitless.slice(COMPILE_AFTER).some(Boolean)).toBe(false);
    // Each schema keeps its own count.
    const other = schema();
    const otherSpy = vi.spyOn(other, 'safeParse');
    safeParse(other, {});
    expect(otherSpy.mock.calls[0]![1]).toEqual({ jitless: true });
  });
});
