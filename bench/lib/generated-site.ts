/**
 * A deterministic generated web site for crawl benchmarks: `pages` article pages of ~10–30 KB each (header nav,
 * breadcrumbs, an article body of seeded prose, a related-links box, a footer), linked as a tree so that a
 * breadth-first crawl from `/` reaches every page, plus a few seeded cross links per page (duplicates a crawler must
 * de-duplicate). The same options always give byte-identical pages.
 *
 *   const routes = generatedSiteRoutes({ pages: 5000, linksPerPage: 10 });   // for startFixtureServer({ routes })
 *   node bench/lib/generated-site.ts --pages 5000 --links 10                  // serves it, prints `{"url": ...}`
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

import { listenOnLoopback } from '../../fixtures/loopback-listen.ts';
import type { Routes } from '../../fixtures/server.ts';

export interface GeneratedSiteOptions {
  /** Number of article pages (`/` is page 0). @default 5000 */
  pages?: number;
  /** Tree links per page to its children (the site is a `linksPerPage`-ary tree). @default 10 */
  linksPerPage?: number;
  /** Seeded cross links per page to arbitrary pages. @default 3 */
  crossLinks?: number;
  /** Seed of the prose and cross links. @default 1 */
  seed?: number;
}

const WORDS = (
  'the of and to in is was for on that with as by at from an were are which this be or has had not but ' +
  'crawler page content markdown server header request response network policy limit archive library garden ' +
  'river mountain window kitchen silver yellow quickly quietly gently thousand system design research article ' +
  'history science market report study review community project service product customer support process ' +
  'quality energy health travel season weather harbor village station museum gallery concert festival recipe ' +
  'engine bridge tunnel railway airport journey letter chapter volume edition author reader editor publisher'
).split(' ');

/** mulberry32: a small fast seeded PRNG (deterministic across runs and platforms). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand: () => number): string {
  const length = 8 + Math.floor(rand() * 14);
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(rand: () => number): string {
  const count = 3 + Math.floor(rand() * 5);
  const sentences: string[] = [];
  for (let i = 0; i < count; i++) sentences.push(sentence(rand));
  return `<p>${sentences.join(' ')}</p>`;
}

const pagePath = (index: number) => (index === 0 ? '/' : `/p/${index}`);
const pageTitle = (index: number) => (index === 0 ? 'Generated site home' : `Article ${index}`);

/** The HTML of page `index` (0 ≤ index < pages). */
export function generatedPage(index: number, options: GeneratedSiteOptions = {}): string {
  const pages = options.pages ?? 5000;
  const fanout = options.linksPerPage ?? 10;
  const crossLinks = options.crossLinks ?? 3;
  const rand = prng((options.seed ?? 1) * 1_000_003 + index);

  const nav = Array.from(
    { length: Math.min(12, pages) },
    (_, i) => `<li><a href="${pagePath(i)}">Section ${i}</a></li>`,
  );
  const parent = index === 0 ? 0 : Math.floor((index - 1) / fanout);
  const children: string[] = [];
  for (let c = index * fanout + 1; c <= index * fanout + fanout && c < pages; c++) {
    children.push(`<li><a href="${pagePath(c)}">${pageTitle(c)}</a></li>`);
  }
  const cross: string[] = [];
  for (let i = 0; i < crossLinks; i++) {
    const target = Math.floor(rand() * pages);
    cross.push(`<li><a href="${pagePath(target)}?ref=related">${pageTitle(target)}</a></li>`);
  }
  const body: string[] = [];
  const sections = 6 + Math.floor(rand() * 7);
  for (let s = 0; s < sections; s++) {
    body.push(`<h2>${sentence(rand).slice(0, -1)}</h2>`);
    const paragraphs = 2 + Math.floor(rand() * 4);
    for (let p = 0; p < paragraphs; p++) body.push(paragraph(rand));
  }

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${pageTitle(index)} | Generated site</title>
<meta name="description" content="${sentence(rand)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<header class="site-header"><a class="logo" href="/">Generated site</a>
<nav class="main-nav"><ul>${nav.join('')}</ul></nav>
<form class="search" action="/search"><input name="q" placeholder="Search"><button>Search</button></form>
</header>
<div class="breadcrumbs"><a href="/">Home</a> › <a href="${pagePath(parent)}">${pageTitle(parent)}</a> › ${pageTitle(index)}</div>
<main>
<article>
<h1>${pageTitle(index)}</h1>
<p class="byline">By Author ${index % 37} · ${1 + (index % 28)} March 2026 · ${3 + (index % 9)} min read</p>
${body.join('\n')}
${children.length ? `<h2>Further reading</h2><ul class="children">${children.join('')}</ul>` : ''}
</article>
<aside class="related"><h3>Related</h3><ul>${cross.join('')}</ul></aside>
</main>
<footer class="site-footer"><ul><li><a href="/p/1">About</a></li><li><a href="/p/2">Contact</a></li>
<li><a href="mailto:editor@generated.test">Write to us</a></li></ul><p>© 2026 Generated site. All rights reserved.</p></footer>
</body>
</html>`;
}

/** Page index of a request path, or undefined when the path is not a page. */
function pageIndex(pathname: string, pages: number): number | undefined {
  if (pathname === '/') return 0;
  const match = /^\/p\/(\d+)$/.exec(pathname);
  if (!match) return undefined;
  const index = Number(match[1]);
  return index > 0 && index < pages ? index : undefined;
}

function handler(options: GeneratedSiteOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const pages = options.pages ?? 5000;
  const cache = new Map<number, Buffer>();
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://generated.test');
    const index = pageIndex(url.pathname, pages);
    if (index === undefined) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not found</h1>');
      return;
    }
    let body = cache.get(index);
    if (!body) cache.set(index, (body = Buffer.from(generatedPage(index, options))));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
  };
}

/** The site as fixture-server routes (`/` and `/p/*`). */
export function generatedSiteRoutes(options: GeneratedSiteOptions = {}): Routes {
  const serve = handler(options);
  return { '/': (req, res) => serve(req, res), '/p/*': (req, res) => serve(req, res) };
}

/** Serves the site on 127.0.0.1 (ephemeral port) with a plain HTTP server. */
export async function serveGeneratedSite(
  options: GeneratedSiteOptions = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler(options));
  server.keepAliveTimeout = 60_000;
  return listenOnLoopback(server);
}

// `node bench/lib/generated-site.ts --pages N --links L` serves the site and prints its URL as JSON.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const site = await serveGeneratedSite({ pages: arg('pages', 5000), linksPerPage: arg('links', 10) });
  process.stdout.write(`${JSON.stringify({ url: site.url })}\n`);
}
