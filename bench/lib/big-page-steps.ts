// The extraction of one big page step by step on this thread (bench/big-page-memory.ts): after each step, the
// process's peak resident set so far (VmHWM: what the step raised it to) and what the heap holds after a full
// collection (the step's outputs and what they keep alive: the tree, the text, the markdown).
//
//   node --expose-gc bench/lib/big-page-steps.ts FILE URL      prints one JSON line: [{ step, peakRss, live, ms }]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';

import { peakRssMB } from './peak-rss.ts';

type Fn = (...args: never[]) => unknown;
const dist = (pkg: string, file: string) => join(import.meta.dirname, `../../packages/${pkg}/dist/${file}`);
const load = async (pkg: string, file: string) => (await import(dist(pkg, file))) as Record<string, Fn>;
const { decodeText } = (await load('fetcher', 'analysis.js')) as {
  decodeText: (body: Uint8Array, type: string) => { text: string };
};
const { parseHtml } = (await load('extractor', 'dom/parse.js')) as { parseHtml: (html: string) => object };
const { baseUrlOf } = (await load('extractor', 'dom/urls.js')) as { baseUrlOf: (doc: object, url: string) => string };
const { extractMetadata } = (await load('extractor', 'metadata.js')) as { extractMetadata: Fn };
const { findMainContent } = (await load('extractor', 'content/index.js')) as {
  findMainContent: (doc: object, options: object) => { document: object };
};
const transform = (await load('extractor', 'clean/transform.js')) as {
  removeExcluded: Fn;
  removeUnwanted: Fn;
  absolutize: Fn;
};
const { htmlToMarkdown } = (await load('extractor', 'markdown/index.js')) as {
  htmlToMarkdown: (doc: object, options: object) => string;
};

const [file, url] = process.argv.slice(2) as [string, string];
const gc = (globalThis as { gc?: () => void }).gc!;
const mib = (n: number) => Math.round(n / 2 ** 20);
const out: { step: string; peakRss: number; live: number; ms: number }[] = [];
const kept: unknown[] = [];
function step<T>(name: string, run: () => T): T {
  const t0 = performance.now();
  const value = run();
  const ms = Math.round(performance.now() - t0);
  const peakRss = peakRssMB();
  kept.push(value);
  gc();
  out.push({ step: name, peakRss, live: mib(getHeapStatistics().used_heap_size), ms });
  return value;
}

gc();
out.push({ step: 'modules', peakRss: peakRssMB(), live: mib(getHeapStatistics().used_heap_size), ms: 0 });
const bytes = step('read', () => new Uint8Array(readFileSync(file)));
const text = step('decode', () => decodeText(bytes, 'text/html; charset=utf-8').text);
let doc = step('parse', () => parseHtml(text));
const base = step('base URL, metadata', () => {
  extractMetadata(doc as never, url as never);
  return baseUrlOf(doc, url);
});
doc = step('main content', () => {
  transform.removeExcluded(doc as never, undefined as never, [] as never);
  return findMainContent(doc, { url }).document;
});
step('clean, absolutize', () => {
  transform.removeUnwanted(doc as never, undefined as never, [] as never);
  return transform.absolutize(doc as never, base as never, url as never, { links: false, images: false } as never);
});
const markdown = step('markdown', () => htmlToMarkdown(doc, { removeBase64Images: true, rawHtml: false }));
process.stdout.write(`${JSON.stringify({ steps: out, markdownChars: markdown.length })}\n`);
