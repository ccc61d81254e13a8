import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { compiledEngineCache } from './adblock-cache.js';
import { loadDefaultAdBlocker, type AdBlocker } from './adblock.js';

const PAGE = 'http://127.0.0.1:8080/news/article.html';
/** Requests a news page makes: its own assets, a CDN, and the ad/analytics/consent hosts of the default list. */
const REQUESTS: [url: string, type: string][] = [
  ['http://127.0.0.1:8080/static/app.3f9c.js', 'script'],
  ['http://127.0.0.1:8080/img/hero.jpg', 'image'],
  ['https://cdn.jsdelivr.net/npm/lodash@4/lodash.min.js', 'script'],
  ['https://www.google-analytics.com/analytics.js', 'script'],
  ['https://www.googletagmanager.com/gtag/js?id=G-XXXX', 'script'],
  ['https://securepubads.g.doubleclick.net/tag/js/gpt.js', 'script'],
  ['https://cdn.cookielaw.org/scripttemplates/otSDKStub.js', 'script'],
  ['https://fonts.googleapis.com/css2?family=Inter', 'stylesheet'],
];
const verdicts = (blocker: AdBlocker) => REQUESTS.map(([url, type]) => blocker.isBlocked(url, type, PAGE, false));

let dir: string;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the default ad blocker', () => {
  it('compiles the list once, then loads the stored engine, which blocks exactly what the compiled one does', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-adblock-'));
    const cache = compiledEngineCache(join(dir, 'engines'));
    const first = await loadDefaultAdBlocker(cache);
    expect(first.compiled).toBe(false);
    expect(await readdir(join(dir, 'engines'))).toHaveLength(1);
    const second = await loadDefaultAdBlocker(cache);
    expect(second.compiled).toBe(true);
    expect(verdicts(second)).toEqual(verdicts(first));
    // First-party assets and the CDN pass; analytics, ads and the consent manager are blocked.
    expect(verdicts(second)).toEqual([false, false, false, true, true, true, true, false]);
    expect(second.isBlocked(PAGE, 'document', PAGE, true)).toBe(false);
  });

  it('compiles again over an entry it cannot read, and replaces it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-adblock-'));
    const engines = join(dir, 'engines');
    const cache = compiledEngineCache(engines);
    await loadDefaultAdBlocker(cache);
    const [file] = await readdir(engines);
    await writeFile(join(engines, file!), 'not an engine: written by another version, or cut short');
    const again = await loadDefaultAdBlocker(cache);
    expect(again.compiled).toBe(false);
    expect(verdicts(again)[3]).toBe(true);
    expect((await loadDefaultAdBlocker(cache)).compiled).toBe(true);
  });

  it('does not use a directory that other users can write to', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-adblock-'));
    const engines = join(dir, 'engines');
    const cache = compiledEngineCache(engines);
    await cache.write(['k'], new Uint8Array([1, 2, 3]));
    expect(await cache.read(['k'])).toEqual(new Uint8Array([1, 2, 3]));
    await chmod(engines, 0o777);
    const open = compiledEngineCache(engines);
    await open.write(['k'], new Uint8Array([1, 2, 3]));
    expect(await open.read(['k'])).toBeUndefined();
    expect((await loadDefaultAdBlocker(open)).compiled).toBe(false);
    expect((await loadDefaultAdBlocker(open)).compiled).toBe(false);
  });

  it('works without a cache', async () => {
    const blocker = await loadDefaultAdBlocker(undefined);
    expect(blocker.compiled).toBe(false);
    expect(verdicts(blocker)[3]).toBe(true);
  });
});
