// Where a whole-page scrape's worker call allocates (issue 37, perf37g): V8's sampling heap profiler
// (`HeapProfiler.startSampling`) over the worker's steps (decode, judge, parse, metadata, clean, markdown), run on
// this thread in a loop, summed by function (self size) and by step.
//
//   pnpm exec node bench/lib/heap-profile-steps.ts [ids|every:N] [runs] [top]
//
// Two profiles: "allocated" counts every sampled allocation, collected or not (what the scavenger works through);
// "live" is what is still reachable when the page's tree is (the tree and what it holds: what is promoted when a
// scavenge falls in the middle of a page).
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadWcxbPages } from './wcxb.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const dist = (pkg: string, file: string) => join(here, `../../packages/${pkg}/dist/${file}`);
const positional = process.argv.slice(2);
const which = positional[0] || '0588,0602,0632,2923,0587,0640,0643,0589,0635,3060,3019,3021';
const runs = Number(positional[1] ?? 3);
const top = Number(positional[2] ?? 30);
const mainContent = process.env['CK_MAIN_CONTENT'] === '1';

type Fn = (...args: never[]) => unknown;
const load = async (pkg: string, file: string) => (await import(dist(pkg, file))) as Record<string, Fn>;
const { decodeText, judgeRendering } = (await load('fetcher', 'analysis.js')) as {
  decodeText: (body: Uint8Array, type: string) => { text: string };
  judgeRendering: (page: object, options: object) => unknown;
};
const { extractPage } = (await load('extractor', 'index.js')) as {
  extractPage: (html: string, options: object) => unknown;
};
const { parseHtml } = (await load('extractor', 'dom/parse.js')) as { parseHtml: (html: string) => object };
const { baseUrlOf } = (await load('extractor', 'dom/urls.js')) as { baseUrlOf: (doc: object, url: string) => string };
const { extractMetadata } = (await load('extractor', 'metadata.js')) as { extractMetadata: Fn };
const transform = (await load('extractor', 'clean/transform.js')) as { removeUnwanted: Fn; absolutize: Fn };
const { htmlToMarkdown } = (await load('extractor', 'markdown/index.js')) as {
  htmlToMarkdown: (doc: object, options: object) => string;
};

const pages = which.startsWith('every:')
  ? loadWcxbPages(datasets, { every: Number(which.slice(6)) })
  : loadWcxbPages(datasets, new Set(which.split(',')));
const bodies = pages.map((p) => {
  const bytes = Buffer.from(p.html);
  const body = new Uint8Array(new SharedArrayBuffer(bytes.length));
  body.set(bytes);
  return { url: `http://127.0.0.1/${p.id}.html`, body };
});

function steps(url: string, body: Uint8Array): object {
  const text = decodeText(body, 'text/html').text;
  judgeRendering({ url, status: 200, contentType: 'text/html', text }, { countAll: false });
  if (mainContent)
    return extractPage(text, { url, onlyMainContent: true, formats: { markdown: true, links: true } }) as object;
  const doc = parseHtml(text);
  const base = baseUrlOf(doc, url);
  extractMetadata(doc as never, url as never);
  transform.removeUnwanted(doc as never, undefined as never, [] as never);
  transform.absolutize(doc as never, base as never, url as never, { links: false, images: false } as never);
  htmlToMarkdown(doc, { removeBase64Images: true, rawHtml: false });
  return doc;
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const STEP_OF: [RegExp, string][] = [
  [/decodeText/, 'decode'],
  [/judgeRendering/, 'judge'],
  [/parseHtml/, 'parse'],
  [/extractMetadata/, 'metadata'],
  [/removeUnwanted|absolutize/, 'clean'],
  [/htmlToMarkdown/, 'markdown'],
  [/extractPage/, 'extractPage'],
];

function summarise(root: ProfileNode, label: string, pageCount: number): void {
  const byFn = new Map<string, number>();
  const byStep = new Map<string, number>();
  let total = 0;
  // a builtin (`push`, `slice`, `replace`: no script URL) is named with the function that called it
  const walk = (node: ProfileNode, step: string, caller: string): void => {
    const f = node.callFrame;
    const stepHere = STEP_OF.find(([re]) => re.test(f.functionName))?.[1] ?? step;
    if (node.selfSize > 0) {
      const file = f.url.replace(/^.*\/(packages|node_modules)\//, '').replace(/^file:\/\//, '');
      const key =
        f.url === ''
          ? `[${stepHere}] ${f.functionName || '(anonymous)'} from ${caller}`
          : `[${stepHere}] ${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
      byFn.set(key, (byFn.get(key) ?? 0) + node.selfSize);
      byStep.set(stepHere, (byStep.get(stepHere) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    const name =
      f.url === ''
        ? caller
        : `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    for (const child of node.children) walk(child, stepHere, name);
  };
  walk(root, '(other)', '(root)');
  const mb = (n: number) => (n / pageCount / 1e6).toFixed(3);
  console.log(`\n${label}: ${mb(total)} MB a page (sampled), by step:`);
  for (const [step, size] of [...byStep].sort((a, b) => b[1] - a[1])) console.log(`  ${step.padEnd(12)} ${mb(size)}`);
  console.log(`by function (self), top ${top}:`);
  for (const [fn, size] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${mb(size)}  ${((size / total) * 100).toFixed(1).padStart(5)}%  ${fn}`);
}

const session = new Session();
session.connect();
for (const { url, body } of bodies) steps(url, body); // warm-up
const pageCount = bodies.length * runs;

await session.post('HeapProfiler.startSampling', {
  samplingInterval: 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < runs; i++) for (const { url, body } of bodies) steps(url, body);
const allocated = await session.post('HeapProfiler.stopSampling');
summarise(allocated.profile.head, 'allocated', pageCount);

// live: one page at a time, the profile stopped while its tree is still held
if (!mainContent) {
  const merged: ProfileNode = {
    callFrame: { functionName: '(root)', url: '', lineNumber: 0 },
    selfSize: 0,
    children: [],
  };
  for (const { url, body } of bodies) {
    await session.post('HeapProfiler.collectGarbage');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 1024 });
    const held = steps(url, body);
    const live = await session.post('HeapProfiler.stopSampling');
    merged.children.push(live.profile.head);
    if (!held) throw new Error('unreachable');
  }
  summarise(merged, 'live with the tree held', bodies.length);
}
session.disconnect();
