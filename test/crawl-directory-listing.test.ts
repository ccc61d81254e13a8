/**
 * A crawl of a file share served as Apache directory listings reads each listing once: the column-sort links every
 * listing carries (`?C=N;O=D`, …) are the same listing in another order (intranet day's Left). Before, each listing
 * was read five times.
 */
import { Crawlkit } from 'crawlkit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';

import type { FixtureServer } from '../fixtures/server.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';

let site: FixtureServer;
let ck: Crawlkit;
const requested: string[] = [];

/** An Apache 2.4 `mod_autoindex` listing of `entries` under `dir`, with its four column-sort links. */
function listing(dir: string, entries: string[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    requested.push(req.url!);
    const sorts = ['N', 'M', 'S', 'D'].map((c) => `<th><a href="?C=${c};O=D">${c}</a></th>`).join('');
    const rows = entries.map((e) => `<tr><td><a href="${e}">${e}</a></td><td>2026-12-01 10:00</td></tr>`).join('');
    res.writeHead(200, { 'content-type': 'text/html;charset=UTF-8' });
    res.end(
      `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"><html><head><title>Index of ${dir}</title></head>` +
        `<body><h1>Index of ${dir}</h1><table><tr>${sorts}</tr>` +
        `<tr><td><a href="../">Parent Directory</a></td></tr>${rows}</table></body></html>`,
    );
  };
}

beforeAll(async () => {
  site = await startRouteSite({
    '/share/': listing('/share', ['handbook/', 'policies.html']),
    '/share/handbook/': listing('/share/handbook', ['welcome.html']),
    '/share/policies.html': (_req, res) => sendPage(res, 'Policies', '<p>Every policy of the company.</p>'),
    '/share/handbook/welcome.html': (_req, res) => sendPage(res, 'Welcome', '<p>Your first day.</p>'),
  });
  ck = new Crawlkit({ store: 'memory', engine: 'http' });
});

afterAll(async () => {
  await ck.close();
  await site.close();
});

it('reads each directory listing once, not once per column-sort link', async () => {
  const started = await ck.crawl({ url: `${site.url}/share/`, sitemap: 'skip', limit: 50 });
  if (!started.success) throw new Error(started.error);
  const done = await ck.waitForJob(started.id);
  if (!done.success) throw new Error(done.error);
  const urls = done.data.map((d) => new URL(d.metadata.sourceURL).pathname).sort();
  expect(urls).toEqual(['/share/', '/share/handbook/', '/share/handbook/welcome.html', '/share/policies.html']);
  expect(requested.sort()).toEqual(['/share/', '/share/handbook/']);
});
