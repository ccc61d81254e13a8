// One whole-page markdown scrape broken into its steps (issue 37, perf37f): where the time of bench:markdown's
// whole-page row goes, thread by thread, and how many bytes each step touches.
//
//   pnpm exec node bench/lib/whole-page-steps.ts [ids] [runs]     default 0588,0643,3060 and 15 runs a page
//   (CK_STEPS_ONLY=1: part 2 alone)
//
// Part 1, the scrape as bench:markdown runs it (worker pool on, the page served from another process): the wall
// time of the scrape and of its two timed stages (`fetch`: request and body read on the main thread; `extract`: the
// call to the worker, its decode, render judge, extraction and reply), and the CPU a scrape by thread (main thread,
// pool workers, V8's helper threads: garbage collection and compilation).
// Part 2, what the worker's call does, step by step, run on this thread in a loop (the crossing left out): CPU ms a
// page of this thread by step, the V8 helper threads' CPU a page over the loop, the bytes each step reads, and
// turndown's conversion of the page without scripts and styles on the same thread (CPU ms): the row's ceiling if the
// read, the crossing and the garbage collection cost nothing (turndown ÷ all steps), and the parse's (turndown ÷ parse).
import { isAscii } from 'node:buffer';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

import { withoutScriptsAndStyles } from './markdown-big-pages.ts';
import { startPageServerProcess } from './page-server-process.ts';
import { median } from './report.ts';
import { threadCpuMs, threadCpuSince, type ThreadCpu } from './thread-cpu.ts';
import { loadWcxbPages, type WcxbPage } from './wcxb.ts';
import { loadCrawlkit } from './crawlkit-build.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const datasets = process.env.WCXB_DIR ?? join(here, '../../../shared/datasets/wcxb-dev');
const dist = (pkg: string, file: string) => join(here, `../../packages/${pkg}/dist/${file}`);
const positional = process.argv.slice(2);
const ids = (positional[0] ?? '0588,0643,3060').split(',');
const runs = Number(positional[1] ?? 15);

type Fn = (...args: never[]) => unknown;
const load = async (pkg: string, file: string) => (await import(dist(pkg, file))) as Record<string, Fn>;
const { decodeText, judgeRendering } = (await load('fetcher', 'analysis.js')) as {
  decodeText: (body: Uint8Array, type: string) => { text: string };
  judgeRendering: (page: object, options: object) => unknown;
};
const { parseHtml } = (await load('extractor', 'dom/parse.js')) as { parseHtml: (html: string) => object };
const { baseUrlOf } = (await load('extractor', 'dom/urls.js')) as { baseUrlOf: (doc: object, url: string) => string };
const { extractMetadata } = (await load('extractor', 'metadata.js')) as { extractMetadata: Fn };
const transform = (await load('extractor', 'clean/transform.js')) as {
  canonicalOf: Fn;
  removeUnwanted: Fn;
  absolutize: Fn;
};
const { htmlToMarkdown } = (await load('extractor', 'markdown/index.js')) as {
  htmlToMarkdown: (doc: object, options: object) => string;
};

const pages = loadWcxbPages(datasets, new Set(ids));
const threadMs = () => {
  const used = process.threadCpuUsage();
  return (used.user + used.system) / 1000;
};
const fmt = (n: number) => n.toFixed(1);

/** Part 1: the scrape as the whole-page row runs it. */
async function scrapeSteps(): Promise<void> {
  const server = await startPageServerProcess(new Map(pages.map((p) => [`/${p.id}.html`, p.html])));
  const { Crawlkit } = await loadCrawlkit();
  const crawlkit = new Crawlkit({ store: 'memory', engine: 'http' });
  let stages: { name: string; ms: number }[] = [];
  const onTimings = (m: unknown) => (stages = (m as { stages: typeof stages }).stages);
  subscribe('crawlkit:scrape:timings', onTimings);
  const body = (page: WcxbPage) => ({
    url: `${server.url}/${page.id}.html`,
    formats: ['markdown' as const],
    onlyMainContent: false,
    maxAge: 0,
    storeInCache: false,
  });
  try {
    for (const page of pages) for (let i = 0; i < 3; i++) await crawlkit.scrape(body(page));
    console.log('part 1: scrape(), whole page, pool on: wall ms (median) and CPU ms a scrape by thread (mean)');
    for (const page of pages) {
      const wall: number[] = [];
      const fetch: number[] = [];
      const extract: number[] = [];
      const before = threadCpuMs();
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const doc = await crawlkit.scrape(body(page));
        wall.push(performance.now() - t0);
        if (!doc.success) throw new Error(`scrape of ${page.id} failed`);
        fetch.push(stages.find((s) => s.name === 'fetch')?.ms ?? NaN);
        extract.push(stages.find((s) => s.name === 'extract')?.ms ?? NaN);
      }
      const after = threadCpuMs();
      const cpu: ThreadCpu | undefined = before && after ? threadCpuSince(before, after) : undefined;
      const per = (ms: number) => fmt(ms / runs);
      console.log(
        `  ${page.id} ${(Buffer.byteLength(page.html) / 1e6).toFixed(2)} MB  wall ${fmt(median(wall))}` +
          `  (fetch ${fmt(median(fetch))}, extract ${fmt(median(extract))})` +
          (cpu ? `  CPU main ${per(cpu.main)} workers ${per(cpu.workers)} V8 helpers ${per(cpu.v8)}` : ''),
      );
    }
  } finally {
    unsubscribe('crawlkit:scrape:timings', onTimings);
    await crawlkit.close();
    await server.close();
  }
}

/** Part 2: the worker's call, step by step, on this thread. */
function workerSteps(): void {
  console.log('part 2: the worker call step by step on this thread: CPU ms a page (mean), bytes read by the step');
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.use(gfm);
  const ceilings: number[] = [];
  const parseCeilings: number[] = [];
  for (const page of pages) {
    const bytes = Buffer.from(page.html);
    const body = new Uint8Array(new SharedArrayBuffer(bytes.length));
    body.set(bytes);
    const url = `http://127.0.0.1/${page.id}.html`;
    const cpu = new Map<string, number>();
    let timed = false;
    const step = <T>(name: string, run: () => T): T => {
      const t0 = threadMs();
      const out = run();
      if (timed) cpu.set(name, (cpu.get(name) ?? 0) + threadMs() - t0);
      return out;
    };
    const once = () => {
      const text = step('decode', () => decodeText(body, 'text/html').text);
      step('judge', () => judgeRendering({ url, status: 200, contentType: 'text/html', text }, { countAll: false }));
      const doc = step('parse', () => parseHtml(text));
      const base = baseUrlOf(doc, url);
      step('metadata', () => {
        extractMetadata(doc as never, url as never);
        transform.canonicalOf(doc as never, base as never);
      });
      step('clean', () => {
        transform.removeUnwanted(doc as never, undefined as never, [] as never);
        transform.absolutize(doc as never, base as never, url as never, { links: false, images: false } as never);
      });
      const markdown = step('markdown', () => htmlToMarkdown(doc, { removeBase64Images: true, rawHtml: false }));
      step('reply', () => structuredClone({ markdown }));
      return { text, markdown };
    };
    const { text, markdown } = once();
    once();
    timed = true;
    const before = threadCpuMs();
    for (let i = 0; i < runs; i++) once();
    const after = threadCpuMs();
    const helpers = before && after ? threadCpuSince(before, after).v8 / runs : NaN;
    // Node decodes a UTF-8 body that is not all ASCII into a two-byte string (UTF-16), whatever its characters.
    const bytesPerChar = isAscii(bytes) ? 1 : 2;
    const parts = [...cpu].map(([name, ms]) => `${name} ${(ms / runs).toFixed(2)}`).join(', ');
    const sum = [...cpu.values()].reduce((a, b) => a + b, 0) / runs;
    const input = withoutScriptsAndStyles(page.html);
    td.turndown(input);
    const t0 = threadMs();
    for (let i = 0; i < runs; i++) td.turndown(input);
    const turndownMs = (threadMs() - t0) / runs;
    ceilings.push(turndownMs / sum);
    parseCeilings.push(turndownMs / (cpu.get('parse')! / runs));
    console.log(
      `  ${page.id} body ${(bytes.length / 1e6).toFixed(2)} MB -> text ${(text.length / 1e6).toFixed(2)} M chars ` +
        `(${((text.length * bytesPerChar) / 1e6).toFixed(2)} MB) -> markdown ${(markdown.length / 1e3).toFixed(0)} K chars` +
        `\n    ${parts}; all steps ${fmt(sum)}; V8 helpers ${fmt(helpers)}` +
        `\n    turndown ${fmt(turndownMs)}: turndown ÷ all steps ${ceilings.at(-1)!.toFixed(2)}x, ÷ parse ${parseCeilings.at(-1)!.toFixed(2)}x`,
    );
  }
  console.log(
    `median over the pages: turndown ÷ all steps ${median(ceilings).toFixed(2)}x, turndown ÷ parse ` +
      `${median(parseCeilings).toFixed(2)}x (the whole-page goal: 3x)`,
  );
}

if (process.env['CK_STEPS_ONLY'] !== '1') await scrapeSteps();
workerSteps();
