// Hostile pages and PDFs through the extractor, side by side with ordinary ones in the same run: time per MB against
// the median WCXB page, the same shape at a tenth of its size (time per MB staying flat is what linear means), and
// the peak RSS of the process that extracted it.
//
// HTML rows run what scrape() runs: extractPage(html, { url, onlyMainContent: true, formats: markdown, links,
// images, metadata, discovery links }). PDF rows run extractPdf with its default caps (1,000 pages, 100 MiB
// decompressed). Each row runs in a child process of its own (its peak RSS is its own), on an input file the parent
// wrote. Times are CPU time (user + system) of the extraction: on a shared machine wall time mostly measures the
// other processes.
//
//   pnpm bench:hostile            the shapes at the sizes issues 22 and 24 measured (about 3 minutes on 2 quiet cores)
//   pnpm bench:hostile --quick    every shape at a tenth of that
//   options: --extractor PATH     time another build of @crawlkit/extractor (its dist/index.js), e.g. main's, for a
//                                 before/after; --only a,b  only these rows
import type * as Extractor from '@crawlkit/extractor';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeInflatingPdf, makePdf } from '../fixtures/make-pdf.ts';
import { peakRssBytes } from './lib/peak-rss.ts';
import { finish, goal, isQuick, median, type Row } from './lib/report.ts';
import { loadWcxbPages } from './lib/wcxb.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const args = process.argv.slice(2);
const option = (flag: string): string | undefined => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const MB = 1e6;

/** One extraction in this process: the child side. */
interface Measure {
  cpuMs: number;
  wallMs: number;
  peakRssMb: number;
  output: number;
  /** PDFs: pages parsed, pages in the file, the error code when it was refused. */
  pages?: number;
  totalPages?: number;
  code?: string;
}

async function child(kind: 'html' | 'pdf', file: string, runs: number, extractor: string): Promise<void> {
  const mod = (await import(extractor)) as typeof Extractor;
  const input = readFileSync(file);
  const html = kind === 'html' ? input.toString('utf8') : '';
  const times: { cpu: number; wall: number }[] = [];
  let result: Omit<Measure, 'cpuMs' | 'wallMs' | 'peakRssMb'> = { output: 0 };
  for (let i = 0; i < runs; i++) {
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    if (kind === 'html') {
      const out = mod.extractPage(html, {
        url: 'https://example.com/page',
        formats: { markdown: true, links: true, images: true, metadata: true, discoveryLinks: true },
      });
      result = { output: out.markdown?.length ?? 0 };
    } else {
      try {
        const out = await mod.extractPdf(input);
        result = { output: out.markdown.length, pages: out.numPages, totalPages: out.totalPages };
      } catch (error) {
        result = { output: 0, code: (error as { code?: string }).code ?? 'ERROR' };
      }
    }
    const cpu = process.cpuUsage(cpu0);
    times.push({ cpu: (cpu.user + cpu.system) / 1000, wall: performance.now() - wall0 });
  }
  const measure: Measure = {
    cpuMs: median(times.map((t) => t.cpu)),
    wallMs: median(times.map((t) => t.wall)),
    peakRssMb: (peakRssBytes() ?? process.resourceUsage().maxRSS * 1024) / 2 ** 20,
    ...result,
  };
  process.stdout.write(JSON.stringify(measure));
}

if (args[0] === '--child') {
  await child(args[1] as 'html' | 'pdf', args[2]!, Number(args[3]), args[4]!);
  process.exit(0);
}

const quick = isQuick(args);
const extractor = option('--extractor') ?? '@crawlkit/extractor';
const only = option('--only')?.split(',');
const scale = quick ? 0.1 : 1;
const n = (count: number) => Math.max(1, Math.round(count * scale));

// The shapes: issue 22's seven, then what profiling them found (each was quadratic or worse before).
const rows = (count: number, cell: (r: number, c: number) => string) =>
  Array.from({ length: count }, (_, r) => `<tr>${Array.from({ length: count }, (_, c) => cell(r, c)).join('')}</tr>`);
const SHAPES: { name: string; size: number; build: (size: number) => string }[] = [
  { name: 'links', size: 200_000, build: (k) => body(repeat(k, (i) => `<a href="/l/${i}">link ${i}</a> `)) },
  { name: 'nested divs', size: 300_000, build: (k) => body(`${'<div>'.repeat(k)}deep text${'</div>'.repeat(k)}`) },
  { name: 'images', size: 200_000, build: (k) => body(repeat(k, (i) => `<img src="/i/${i}.png" alt="image ${i}">`)) },
  { name: 'nested lists', size: 100_000, build: (k) => body(`${'<ul><li>item'.repeat(k)}${'</li></ul>'.repeat(k)}`) },
  { name: 'paragraphs', size: 1_000_000, build: (k) => body(repeat(k, (i) => `<p>Paragraph ${i} of the page.</p>`)) },
  { name: 'unclosed divs', size: 1_000_000, build: (k) => body('<div>x'.repeat(k)) },
  {
    name: 'table (rows = columns)',
    size: 1_000,
    build: (k) => body(`<table>${rows(k, (r, c) => `<td>${r}:${c}</td>`).join('')}</table>`),
  },
  {
    name: 'quoting replies',
    size: 50_000,
    build: (k) =>
      body(
        `<article>${repeat(k, (i) => `<p>Post number ${i} says something long enough to count.</p>`)}` +
          `${repeat(k, (i) => `<blockquote><p>Reply number ${i} quotes something long enough.</p></blockquote>`)}</article>`,
      ),
  },
  {
    name: 'same-size blocks',
    size: 50_000,
    build: (k) =>
      body(
        `<article>${repeat(k, (i) => {
          const id = String(i).padStart(7, '0');
          return `<div><p>First paragraph of group ${id} with some words.</p><p>Second paragraph of group ${id}, more.</p></div>`;
        })}</article>`,
      ),
  },
  {
    name: 'srcset candidates',
    size: 200_000,
    build: (k) => body(`<p>text</p><img srcset="${'a.png 1x,'.repeat(k)}b.png 2x">`),
  },
  {
    name: 'unclosed css url(',
    size: 200_000,
    build: (k) => body(`<p>text</p><div style="background:${'url('.repeat(k)}">x</div>`),
  },
  {
    name: 'unclosed CDATA chain',
    size: 20_000,
    build: (k) => body(`<p>start</p>${repeat(k, () => `<![CDATA[${'x'.repeat(200)}><p>after</p>`)}`),
  },
  {
    name: 'spanning table rows',
    size: 100_000,
    build: (k) =>
      body(`<table><tr><th colspan=1000 rowspan=65534>x</th></tr>${'<tr><td>y</td></tr>'.repeat(k)}</table>`),
  },
  // the main-content rules of issue 18's eleventh part (bylines, ledes, FAQ toggles, announced lists, pointer
  // headings, placeholders) and the lead's streamed parts and sign-up forms, each shape once quadratic or near it
  {
    name: 'bylines',
    size: 40_000,
    build: (k) =>
      body(
        `<article><h1>Title</h1>${repeat(k, (i) => `<div class="byline">By <a rel="author">Author ${i}</a> <time datetime="2025-03-03">March 3, 2025</time></div>`)}${prose(200)}</article>`,
      ),
  },
  {
    name: 'byline parts in one block',
    size: 40_000,
    build: (k) =>
      body(
        `<article><h1>Title</h1><div>${repeat(k, (i) => `By <a rel="author">Author ${i}</a> <time datetime="2025-03-03">March 3, 2025</time> `)}</div>${prose(200)}</article>`,
      ),
  },
  {
    name: 'datelines',
    size: 100_000,
    build: (k) =>
      body(
        `<article><h1>Title</h1>${repeat(k, (i) => `<div>March ${(i % 28) + 1}, 2025</div>`)}${prose(200)}</article>`,
      ),
  },
  {
    name: 'deep bylines',
    size: 100_000,
    build: (k) =>
      body(
        `<article>${'<div class="meta">'.repeat(600)}<h1>Title</h1>${repeat(k, (i) => `<span class="date">March ${(i % 28) + 1}, 2025</span>`)}${'</div>'.repeat(600)}${prose(200)}</article>`,
      ),
  },
  {
    name: 'lede in deep wrappers',
    size: 200_000,
    build: (k) =>
      body(
        `<section><h1>Title</h1>${'<div>'.repeat(600)}${prose(3)}${'<label>x</label>'.repeat(k)}${'</div>'.repeat(600)}<article>${prose(k / 10)}</article></section>`,
      ),
  },
  {
    name: 'question toggles',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>FAQ</h1>${repeat(k, (i) => `<div><button aria-expanded="false">Question number ${i}, is it?</button><div><p>Answer ${i} to the question, long enough.</p></div></div>`)}</main>`,
      ),
  },
  {
    name: 'nested question toggles',
    size: 50_000,
    build: (k) =>
      body(
        `<main><h1>FAQ</h1>${'<button aria-expanded="false"><span>'.repeat(k)}Is it?${'</span></button>'.repeat(k)}${prose(200)}</main>`,
      ),
  },
  {
    name: 'announced lists',
    size: 8_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(k)}${'<div>'.repeat(600)}${repeat(k, (i) => `<div>${links(10, i)}<p>These ones are still worth looking into, all of them:</p><ul><li><a href="/x/${i}">x</a></li><li><a href="/y/${i}">y</a></li><li><a href="/z/${i}">z</a></li></ul></div>`)}${'</div>'.repeat(600)}</main>`,
      ),
  },
  {
    name: 'announced list in link wrappers',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(k / 2)}${repeat(500, (i) => `<div><a href="/c/${i}">chain ${i}</a> `)}${links(k, 0)}<p>These ones are still worth looking into, all of them:</p><ul><li><a href="/x">x</a></li><li><a href="/y">y</a></li><li><a href="/z">z</a></li></ul>${'</div>'.repeat(500)}</main>`,
      ),
  },
  {
    name: 'pointer headings',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${repeat(k, (i) => `<div><h2>Further reading</h2><ul><li><a href="/a/${i}">Link ${i}</a></li><li><a href="/b/${i}">Other ${i}</a></li></ul><p>Paragraph ${i} of the story, a sentence long enough to count as prose.</p>`)}${'</div>'.repeat(k)}</main>`,
      ),
  },
  {
    name: 'placeholders',
    size: 30_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(k)}${'<div><b>level</b>'.repeat(500)}${repeat(k, (i) => `<div><h3>Heading Line</h3><p>Lorem ipsum dolor sit amet ${i}.</p></div><div>Loading paragraph ${i}...</div>`)}${'</div>'.repeat(500)}</main>`,
      ),
  },
  {
    name: 'streamed parts',
    size: 40_000,
    build: (k) =>
      body(
        `<main>${repeat(k, (i) => `<!--$?--><template id="B:${i.toString(16)}"></template><div>Loading…</div><!--/$-->`)}</main>${repeat(k, (i) => `<div hidden id="S:${i.toString(16)}"><p>Part ${i} of the story, a sentence long enough to count as prose.</p></div>`)}`,
      ),
  },
  {
    name: 'linked-title runs',
    size: 100_000,
    build: (k) =>
      body(
        `<article>${prose(200)}${'<div>'.repeat(600)}${repeat(k, (i) => `<p><a href="/g/${i}">Guide ${i} to the city</a></p>${i % 7 === 0 ? `<img src="/i/${i}.png" alt="">` : ''}`)}${'</div>'.repeat(600)}</article>`,
      ),
  },
  {
    name: 'noscript iframes',
    size: 100_000,
    build: (k) =>
      body(repeat(k, (i) => `<noscript><iframe src="/ns/${i}"></noscript><p>Paragraph ${i} after a tag snippet.</p>`)),
  },
  {
    name: 'wrapper chain',
    size: 20_000,
    build: (k) =>
      body(
        `<main>${prose(50)}${'<div>'.repeat(500)}${repeat(k, (i) => `<p>Short line ${i} of a list.</p>`)}${'</div>'.repeat(500)}</main>`,
      ),
  },
  {
    name: 'teaser cards on an article',
    size: 30_000,
    build: (k) =>
      `<!doctype html><html><head><meta property="og:type" content="article"><title>Hostile</title></head><body>${'<div>'.repeat(300)}<div>${prose(100)}</div>${repeat(k, (i) => `${i % 3 === 0 ? '<div class="row">' : ''}<div class="card"><h5><a href="/c">Section</a></h5><h3><a href="/s/${i}">Story number ${i} of the related reads</a></h3><p>Blurb ${i} of a story, a sentence long enough to count as prose.</p></div>${i % 3 === 2 ? '</div>' : ''}`)}${'</div>'.repeat(300)}</body></html>`,
  },
  {
    name: 'phone links',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(200)}${repeat(k, (i) => `<div>${'<span>'.repeat(20)}<a href="tel:+1800555${i}">(800) 555-${i}</a>${'</span>'.repeat(20)}<span>${'<b></b>'.repeat(20)}Call us</span></div>`)}</main>`,
      ),
  },
  {
    name: 'jump links among empty siblings',
    size: 20_000,
    build: (k) =>
      body(
        `<main><h1>Title</h1>${prose(200)}<p>${repeat(k, (i) => `${'<i></i>'.repeat(20)}<a href="#pick-${i}">Jump to details</a>`)}</p></main>`,
      ),
  },
  {
    name: 'nested sign-up forms',
    size: 20_000,
    build: (k) =>
      body(
        `${'<form>'.repeat(600)}${repeat(k, (i) => `<input type="email"><p>Field ${i} text.</p>`)}${'</form>'.repeat(600)}`,
      ),
  },
];

function body(inner: string): string {
  return `<!doctype html><html><head><title>Hostile</title></head><body>${inner}</body></html>`;
}
function prose(count: number): string {
  return repeat(count, (i) => `<p>Paragraph ${i} of the story, a sentence long enough to count as prose.</p>`);
}
function links(count: number, group: number): string {
  return repeat(count, (i) => `<a href="/l/${group}/${i}">link ${i}</a> `);
}
function repeat(count: number, item: (i: number) => string): string {
  const parts: string[] = new Array(count);
  for (let i = 0; i < count; i++) parts[i] = item(i);
  return parts.join('');
}

const dir = mkdtempSync(join(tmpdir(), 'ck-hostile-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function run(kind: 'html' | 'pdf', content: string | Buffer, runs = 1): Measure & { bytes: number } {
  const file = join(dir, `input.${kind}`);
  writeFileSync(file, content);
  const out = execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--child', kind, file, String(runs), extractor],
    { maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return { ...(JSON.parse(out.toString()) as Measure), bytes: Buffer.byteLength(content) };
}

const table: Row[] = [];
const perMb = (m: { cpuMs: number; bytes: number }) => m.cpuMs / (m.bytes / MB);

// Baseline: the median WCXB page by size.
const datasets = process.env['WCXB_DIR'] ?? join(here, '../../shared/datasets/wcxb-dev');
let baselinePerMb = Number.NaN;
try {
  const pages = loadWcxbPages(datasets, { every: 10 }).sort((a, b) => a.html.length - b.html.length);
  const page = pages[pages.length >> 1]!;
  const m = run('html', page.html, quick ? 5 : 15);
  baselinePerMb = perMb(m);
  table.push({
    row: `WCXB median page (${page.id})`,
    'input MB': m.bytes / MB,
    'cpu ms': m.cpuMs,
    'ms/MB': baselinePerMb,
    'vs median': 1,
    'ms/MB at 1/10': null,
    'growth x': null,
    'peak RSS MB': m.peakRssMb,
    'output KB': m.output / 1e3,
  });
} catch (error) {
  console.log(`no WCXB baseline (${(error as Error).message}); set WCXB_DIR`);
}

let worstGrowth = 0;
let worstVsMedian = 0;
for (const shape of SHAPES) {
  if (only && !only.includes(shape.name)) continue;
  const size = n(shape.size);
  const full = run('html', shape.build(size));
  const tenth = run('html', shape.build(Math.max(1, Math.round(size / 10))));
  const growth = perMb(full) / perMb(tenth);
  worstGrowth = Math.max(worstGrowth, growth);
  worstVsMedian = Math.max(worstVsMedian, perMb(full) / baselinePerMb);
  table.push({
    row: `${size.toLocaleString('en-US')} ${shape.name}`,
    'input MB': full.bytes / MB,
    'cpu ms': full.cpuMs,
    'ms/MB': perMb(full),
    'vs median': perMb(full) / baselinePerMb,
    'ms/MB at 1/10': perMb(tenth),
    'growth x': growth,
    'peak RSS MB': full.peakRssMb,
    'output KB': full.output / 1e3,
  });
}

// PDFs: an ordinary 100-page document, 20,000 pages, and a content stream that inflates to 1 GiB.
const pdfRows: { name: string; build: () => Buffer }[] = [
  {
    name: 'PDF, 100 ordinary pages',
    build: () =>
      makePdf(
        'Ordinary',
        Array.from({ length: 100 }, (_, i) => [`Page ${i + 1}`, 'Some text.']),
        { compress: true },
      ),
  },
  {
    name: `PDF, ${n(20_000).toLocaleString('en-US')} pages`,
    build: () =>
      makePdf(
        'Long',
        Array.from({ length: n(20_000) }, (_, i) => [`Page ${i + 1}`]),
        { compress: true },
      ),
  },
  { name: 'PDF, 1 GiB content stream', build: () => makeInflatingPdf(1024 ** 3, 'after the padding') },
];
let bombRss = Number.NaN;
let longPages = Number.NaN;
for (const pdf of pdfRows) {
  if (only && !only.some((o) => pdf.name.includes(o))) continue;
  const m = run('pdf', pdf.build());
  if (pdf.name.includes('GiB')) bombRss = m.peakRssMb;
  else if (pdf.name.includes(' pages') && !pdf.name.includes('ordinary')) longPages = m.pages ?? Number.NaN;
  table.push({
    row: pdf.name,
    'input MB': m.bytes / MB,
    'cpu ms': m.cpuMs,
    'ms/MB': perMb(m),
    'vs median': null,
    'ms/MB at 1/10': null,
    'growth x': null,
    'peak RSS MB': m.peakRssMb,
    'output KB': m.output / 1e3,
    pages: m.code ?? `${m.pages} of ${m.totalPages}`,
  });
}

finish({
  name: 'hostile',
  title: `hostile: extraction of hostile pages and PDFs (CPU time; each row in its own process; extractor ${extractor})`,
  quick,
  rows: table,
  columns: [
    'row',
    'input MB',
    'cpu ms',
    'ms/MB',
    'vs median',
    'ms/MB at 1/10',
    'growth x',
    'peak RSS MB',
    'output KB',
    'pages',
  ],
  notes: [
    "'vs median' = the row's ms/MB over the median WCXB page's; 'growth x' = ms/MB at full size over ms/MB at a tenth",
    '(about 1 when the work is linear in the input; 10 when it is quadratic).',
    'PDF rows: pages parsed of pages in the file, or the error code of a refused file.',
  ],
  goals: [
    goal(
      'hostile.linear',
      'hostile: every shape linear (growth x <= 2)',
      worstGrowth,
      2,
      `worst ${worstGrowth.toFixed(2)}x`,
      {
        atMost: true,
      },
    ),
    goal(
      'hostile.vs-median',
      "hostile: every shape within 10x the median page's time per MB",
      worstVsMedian,
      10,
      `worst ${worstVsMedian.toFixed(1)}x`,
      { atMost: true },
    ),
    goal(
      'hostile.pdf-bomb',
      'hostile: a 1 GiB PDF content stream never held (peak RSS < 256 MB)',
      bombRss,
      256,
      `${bombRss.toFixed(0)} MB`,
      {
        atMost: true,
      },
    ),
    goal(
      'hostile.pdf-pages',
      'hostile: a 20,000-page PDF parses at most 1,000 pages by default',
      longPages,
      1000,
      `${longPages} pages`,
      {
        atMost: true,
      },
    ),
  ],
  data: { scale, extractor },
});
