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
import { SHAPES } from './lib/hostile-shapes.ts';
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
