/**
 * The page cache keeps an HTTP page's bytes as they came (issue 22): the cache write decodes nothing on the main
 * thread, and a hit, in this process or another, decodes the bytes in the extraction worker like a miss does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

import { Crawlkit, type Document, type ErrorResponse, type ScrapeResponse } from 'crawlkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFixtureServer, type FixtureServer } from '../fixtures/server.ts';

// A news page in windows-1252, its charset declared only in a <meta>: "é", "’" and "€" are single bytes that are
// not UTF-8, so any decode with the wrong charset shows in the markdown.
const RQUO = '\x92'; // ’ in windows-1252
const EURO = '\x80'; // €
// Latin-1 writes each character below 256 as that byte: the windows-1252 bytes of the page.
const PAGE = Buffer.from(
  `<!doctype html><html lang="fr"><head><meta charset="windows-1252"><title>Le café d${RQUO}en face</title></head><body>
<div class="cookie-banner" role="dialog"><p>Nous utilisons des cookies.</p><button>Accepter</button></div>
<header><nav><a href="/">Accueil</a> <a href="/politique">Politique</a> <a href="/culture">Culture</a></nav></header>
<main><article><h1>Le café d${RQUO}en face ferme ses portes</h1>
<p>Après quarante ans, le café d${RQUO}en face ferme. Le propriétaire a vendu le fonds pour 250 000 ${EURO}, et les habitués
se sont réunis une dernière fois autour du comptoir en zinc.</p>
<p>« C${RQUO}était notre deuxième maison », raconte une cliente fidèle depuis l${RQUO}été 1987, qui y prenait son café crème.</p>
</article>
<section class="comments"><h2>3 commentaires</h2><p>Quel dommage ! Je me souviens des croissants.</p></section>
<aside><h3>À lire aussi</h3><a href="/a">Un autre café ferme</a></aside></main>
<footer>© Le Journal du quartier</footer></body></html>`,
  'latin1',
);

let server: FixtureServer;
const root = mkdtempSync(join(tmpdir(), 'ck-cache-bytes-'));
const dir = join(root, 'store');
let one: Crawlkit;
let two: Crawlkit | undefined;

beforeAll(async () => {
  server = await startFixtureServer({
    routes: {
      '/bytes/*': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(PAGE);
      },
    },
  });
  one = new Crawlkit({ storeDir: dir, engine: 'http' });
  // The worker pool's first start (slow on a loaded machine) happens here, not within the test's time.
  doc(await one.scrape({ url: `${server.url}/bytes/warm-up`, storeInCache: false }));
});

afterAll(async () => {
  await two?.close();
  await one.close();
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function doc(response: ScrapeResponse | ErrorResponse): Document {
  if (!response.success) throw new Error(`unexpected error: ${response.code} ${response.error}`);
  return response.data;
}

describe('the page cache keeps bytes (issue 22)', () => {
  it('stores the page undecoded, and serves the same content from it in another engine', async () => {
    const url = `${server.url}/bytes/cafe`;
    const miss = doc(await one.scrape({ url, formats: ['markdown', 'rawHtml'] }));
    expect(miss.metadata.cacheState).toBe('miss');
    expect(miss.markdown).toContain('Le propriétaire a vendu le fonds pour 250 000 €');
    expect(miss.markdown).toContain('le café d’en face ferme');
    expect(miss.rawHtml).toContain('<title>Le café d’en face</title>');

    // The page's cache write commits after the answer, at the end of the turn: another connection sees it then.
    await new Promise((resolve) => setImmediate(resolve));
    const db = new DatabaseSync(join(dir, 'crawlkit.db'), { readOnly: true });
    const rows = db.prepare('SELECT value, body, bytes FROM pages').all() as {
      value: string;
      body: Uint8Array | null;
      bytes: number;
    }[];
    db.close();
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.body!).equals(PAGE)).toBe(true);
    // The value is the head alone: no text was made from the page to store it.
    expect(rows[0]!.value).not.toContain('\n');
    expect(rows[0]!.bytes).toBe(Buffer.byteLength(rows[0]!.value) + PAGE.length);

    // A second engine on the same directory reads the page from the file (its memo and hot tier are its own); `one`
    // stays open meanwhile so that both share one warm worker pool.
    two = new Crawlkit({ storeDir: dir, engine: 'http' });
    const hit = doc(await two.scrape({ url, formats: ['markdown', 'rawHtml'] }));
    expect(hit.metadata.cacheState).toBe('hit');
    expect(hit.markdown).toBe(miss.markdown);
    expect(hit.rawHtml).toBe(miss.rawHtml);
    expect(server.requests.filter((r) => r.path === '/bytes/cafe')).toHaveLength(1);
  });
});
