import { describe, expect, it } from 'vitest';

import { fromWire, toWire } from './wire.js';

describe('the wire of the extraction workers', () => {
  it('sends byte arrays as Latin-1 strings where bytes cross slowly (Deno), and makes bytes of them again', () => {
    const body = new Uint8Array(new SharedArrayBuffer(256));
    for (let byte = 0; byte < 256; byte++) body[byte] = byte;
    const state = new Int32Array(new SharedArrayBuffer(8));
    const call = {
      kind: 'judgeAndExtract',
      page: { url: 'u', undecoded: { body, charset: 'x' } },
      list: [body],
      state,
    };
    const wire = toWire(call, true);
    expect(wire.page.undecoded.body).toEqual({ __crawlkitLatin1: expect.any(String) });
    expect((wire.page.undecoded.body as unknown as { __crawlkitLatin1: string }).__crawlkitLatin1).toHaveLength(256);
    // What is not bytes stays as it is: the call's shared state must stay shared memory.
    expect(wire.state).toBe(state);
    const back = fromWire(structuredClone(wire), true);
    expect(back.page.undecoded.body).toBeInstanceOf(Uint8Array);
    expect([...back.page.undecoded.body]).toEqual([...body]);
    expect([...back.list[0]!]).toEqual([...body]);
  });

  it('leaves calls as they are on Node', () => {
    const call = { body: new Uint8Array([1, 2, 3]) };
    expect(toWire(call, false)).toBe(call);
    expect(fromWire(call, false)).toBe(call);
  });
});
