import { createRequire } from 'node:module';
import type * as Path from 'node:path';

import { describe, expect, it } from 'vitest';
import type * as Zod from 'zod';

import { lazyModule, lazyRequire } from './lazy-module.js';

describe('lazyModule', () => {
  it('loads nothing until called, then once for concurrent and later callers', async () => {
    let loads = 0;
    const load = lazyModule(() => {
      loads++;
      return import('node:path');
    });
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect(await load()).toBe(a);
    expect(a).toBe(b);
    expect(loads).toBe(1);
  });

  it('gives a failed load to its callers and tries again at the next call', async () => {
    let loads = 0;
    // The first load asks for a package that is not installed, as an optional module missing from an install.
    const specifiers = ['no-such-module-of-crawlkit', 'node:path'];
    const load = lazyModule(() => import(specifiers[loads++]!) as Promise<typeof Path>);
    await expect(load()).rejects.toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
    expect((await load()).join('a', 'b')).toBe('a/b');
    expect(loads).toBe(2);
  });
});

describe('lazyRequire', () => {
  it('requires nothing until called, then once', () => {
    const require = createRequire(import.meta.url);
    const { cache, resolve } = require;
    const id = resolve('zod');
    delete cache[id];
    const load = lazyRequire(() => require('zod') as typeof Zod);
    expect(cache[id]).toBeUndefined();
    const zod = load();
    expect(typeof zod.string).toBe('function');
    expect(load()).toBe(zod);
    expect(cache[id]).toBeDefined();
  });

  it('throws a failed load to every caller, keeping nothing of it', () => {
    const require = createRequire(import.meta.url);
    const load = lazyRequire(() => require('no-such-module-of-crawlkit') as unknown);
    expect(() => load()).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }) as Error);
    expect(() => load()).toThrow(expect.objectContaining({ code: 'MODULE_NOT_FOUND' }) as Error);
  });
});
