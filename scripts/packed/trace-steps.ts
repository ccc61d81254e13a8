/**
 * Packed check of an app deployed with a file tracer (README, Bundling): Next.js `output: 'standalone'` and Vercel's
 * functions copy only the files `@vercel/nft` finds from the app's entry. Here the tracer is called as Next calls it,
 * on an app of the install folder that imports crawlkit; the traced files are copied to an empty folder beside it
 * (outside the install, so that nothing resolves from its node_modules), and the copy scrapes an HTML page, a PDF, a
 * scanned PDF through OCR, a DOCX and a page in the browser with a screenshot (ads blocked, the default). A file
 * crawlkit loads at run time in a way the tracer cannot read fails here. Runs after `officeSteps` (officeparser
 * installed, for the DOCX).
 */
import { strict as assert } from 'node:assert';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

import { nodeFileTrace } from '@vercel/nft';

import { run } from './run.ts';
import { PDF_LINE } from './site.ts';
import type { Step } from './steps.ts';

/** What the app scrapes, by name: each answer is printed as `{ name, success, code, error, text }`. */
const app = `import { Crawlkit } from 'crawlkit';
const site = process.argv[2];
const http = new Crawlkit({ store: 'memory', engine: 'http' });
const browser = new Crawlkit({ store: 'memory' });
const scrapes = [
  ['html', http, { url: site + '/article', formats: ['markdown'] }],
  ['legacy', http, { url: site + '/legacy', formats: ['markdown'] }],
  ['pdf', http, { url: site + '/report.pdf', formats: ['markdown'] }],
  ['ocr', http, { url: site + '/scanned.pdf', formats: ['markdown'] }],
  ['docx', http, { url: site + '/report.docx', formats: ['markdown'] }],
  ['screenshot', browser, { url: site + '/article', formats: ['markdown', 'screenshot'] }],
];
const answers = [];
for (const [name, ck, request] of scrapes) {
  const started = performance.now();
  const page = await ck.scrape({ ...request, timeout: 20000 });
  answers.push({
    name,
    ms: Math.round(performance.now() - started),
    success: page.success,
    code: page.code,
    error: page.error,
    text: page.data ? page.data.markdown : undefined,
    screenshot: page.data && page.data.screenshot ? page.data.screenshot.slice(0, 22) : undefined,
  });
}
await Promise.all([http.close(), browser.close()]);
console.log(JSON.stringify(answers));
`;

/** Copies `files` (paths relative to `from`, as the tracer lists them) into `to`, links as links. */
function copyTraced(files: Iterable<string>, from: string, to: string): number {
  let count = 0;
  for (const file of files) {
    const source = join(from, file);
    const target = join(to, file);
    mkdirSync(dirname(target), { recursive: true });
    if (lstatSync(source).isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (lstatSync(source).isFile()) copyFileSync(source, target);
    else continue;
    count++;
  }
  return count;
}

const traced: Step = {
  name: 'an app traced by @vercel/nft and copied elsewhere scrapes HTML, PDF, OCR, DOCX and a screenshot',
  run: async (ctx) => {
    const entry = join(ctx.dir, 'traced-app.mjs');
    writeFileSync(entry, app);
    const started = performance.now();
    const { fileList } = await nodeFileTrace([entry], { base: ctx.dir, processCwd: ctx.dir, mixedModules: true });
    const traceMs = performance.now() - started;
    const copy = join(dirname(ctx.dir), 'traced');
    rmSync(copy, { recursive: true, force: true });
    const count = copyTraced(fileList, ctx.dir, copy);
    console.log(
      `[packed] traced ${count} files in ${Math.round(traceMs)} ms, copied in ${Math.round(performance.now() - started - traceMs)} ms`,
    );
    // Cookie-banner handling fails quietly (a page keeps its banner), so its script is looked for in the copy.
    const autoconsent = 'node_modules/@duckduckgo/autoconsent/dist/autoconsent.playwright.js';
    assert.ok(existsSync(join(copy, autoconsent)), `the tracer left out ${autoconsent}`);
    const result = await run(ctx.node, [join(copy, 'traced-app.mjs'), ctx.site], { cwd: copy, timeoutMs: 120_000 });
    assert.equal(result.status, 0, `the traced app exited ${result.status}: ${result.stderr}${result.stdout}`);
    const answers = JSON.parse(result.stdout) as {
      name: string;
      ms: number;
      success: boolean;
      code?: string;
      error?: string;
      text?: string;
      screenshot?: string;
    }[];
    console.log(`[packed] traced app: ${answers.map((a) => `${a.name} ${a.ms} ms`).join(', ')}`);
    const failed = answers.filter((answer) => !answer.success);
    assert.deepEqual(failed, [], 'scrapes failed in the traced copy');
    const text = Object.fromEntries(answers.map((answer) => [answer.name, answer.text ?? '']));
    assert.match(text['html']!, /What users install is what we test/);
    assert.match(text['legacy']!, /Déjà vu à Noël/);
    assert.match(text['pdf']!, new RegExp(PDF_LINE));
    assert.match(text['ocr']!, /Invoice 4521/);
    assert.match(text['docx']!, /# Quarterly Report/);
    assert.match(text['screenshot']!, /What users install is what we test/);
    assert.ok(answers.find((answer) => answer.name === 'screenshot')?.screenshot, 'no screenshot');
  },
};

export const traceSteps: Step[] = [traced];
