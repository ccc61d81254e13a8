/**
 * A rendered page is read in slices (each CDP message is parsed on the Node main thread), and a script-built
 * document larger than the HTTP body limit is refused before it is sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Fetcher } from '../index.js';
import { testBrowser } from './__fixtures__/browser-harness.js';
import { HTML_CHUNK_CHARS } from '@crawlkit/actions';

const MAX_BODY_BYTES = 1_500_000;

/** A shop's catalogue app: chrome served as HTML, `rows` products rendered by its script. */
const catalogue = (rows: number) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>All products — Example Shop</title></head><body>
<div class="cookie-bar" role="dialog">We use cookies to improve your visit. <button>Accept all</button></div>
<header><nav><a href="/">Home</a> <a href="/catalogue">Catalogue</a> <a href="/cart">Cart (0)</a></nav></header>
<main id="app"><p class="loading">Loading…</p></main>
<footer><a href="/terms">Terms</a> © Example Shop</footer>
<script>
  const items = [];
  for (let i = 0; i < ${rows}; i++) {
    items.push('<li class="product" id="p-' + i + '"><a href="/p/' + i + '">Kitchen utensil set no. ' + i +
      '</a> <span class="price">€' + (i % 90) + '.99</span></li>');
  }
  document.getElementById('app').innerHTML = '<h1>All products</h1><ul>' + items.join('') + '</ul>';
</script></body></html>`;

let server: Server;
let base: string;
let fetcher: Fetcher;

beforeAll(async () => {
  server = createServer((req, res) => {
    const rows = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('rows') ?? 10);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(catalogue(rows));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fetcher = new Fetcher({ browser: await testBrowser(), http: { limits: { maxBodyBytes: MAX_BODY_BYTES } } });
});

afterAll(async () => {
  await fetcher?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the rendered page', () => {
  it('is read whole across several slices: every product once, in order', async () => {
    const rows = 10_000; // ~1.2 M characters: two slices
    const result = await fetcher.fetch({ url: `${base}/?rows=${rows}`, engine: 'browser', blockAds: false });
    const html = result.text!;
    expect(html.length).toBeGreaterThan(HTML_CHUNK_CHARS);
    const ids = [...html.matchAll(/id="p-(\d+)"/g)].map((m) => Number(m[1]));
    expect(ids).toHaveLength(rows);
    expect(ids.every((id, i) => id === i)).toBe(true);
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head>')).toBe(true);
    expect(html.endsWith('</body></html>')).toBe(true);
    expect(html).not.toContain('Loading…');
    expect(new TextDecoder().decode(result.body)).toBe(html);
  }, 60_000);

  it('is refused with SCRAPE_RESPONSE_TOO_LARGE when its script builds more than maxBodyBytes', async () => {
    const refused = fetcher.fetch({ url: `${base}/?rows=20000`, engine: 'browser', blockAds: false });
    await expect(refused).rejects.toMatchObject({
      code: 'SCRAPE_RESPONSE_TOO_LARGE',
      message: expect.stringMatching(/rendered page \(\d+ characters\) exceeds the limit of 1500000 bytes/),
    });
    // The engine goes on: a small page of the same app renders.
    const small = await fetcher.fetch({ url: `${base}/?rows=3`, engine: 'browser', blockAds: false });
    expect(small.text).toContain('Kitchen utensil set no. 2');
  }, 60_000);
});
