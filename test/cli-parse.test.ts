/** `crawlkit parse FILE`, the built command: documents by path, OCR modes, outputs and exit codes. */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makePdf } from '../fixtures/make-pdf.ts';
import { makeDocx, makeScannedPdf, makeXlsx } from '../packages/documents/src/__fixtures__/writers.ts';
import { ensureBuilt, runCli } from './cli-helpers.ts';

const golden = (format: string) =>
  readFileSync(new URL(`../packages/documents/src/__fixtures__/golden/${format}.md`, import.meta.url), 'utf8').trim();

let dir: string;
const run = (args: string[]) => runCli([...args, '--store', join(dir, 'store')], { cwd: dir });

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'ck-cli-parse-'));
  writeFileSync(join(dir, 'report.docx'), await makeDocx());
  writeFileSync(join(dir, 'report.xlsx'), await makeXlsx());
  writeFileSync(join(dir, 'scan.pdf'), await makeScannedPdf());
  writeFileSync(
    join(dir, 'long.pdf'),
    makePdf(
      'Long',
      Array.from({ length: 1005 }, (_, i) => [`Page ${i + 1}`]),
    ),
  );
  writeFileSync(join(dir, 'sales.csv'), 'Region,Sales\nNorth,120\n');
  writeFileSync(
    join(dir, 'report.ods'),
    readFileSync(new URL('../packages/documents/src/__fixtures__/report.ods', import.meta.url)),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('crawlkit parse', { timeout: 120_000 }, () => {
  it('prints the markdown of a document', async () => {
    const docx = await run(['parse', 'report.docx']);
    expect(docx).toMatchObject({ code: 0 });
    expect(docx.stdout.trim()).toBe(golden('docx'));
    const csv = await run(['parse', 'sales.csv']);
    expect(csv.stdout.trim()).toBe('| Region | Sales |\n| --- | --- |\n| North | 120 |');
  });

  it('prints the v2 response with --json and writes files with --out', async () => {
    const json = await run(['parse', 'report.xlsx', '--format', 'markdown,html', '--json']);
    expect(json.code).toBe(0);
    const response = JSON.parse(json.stdout) as { success: boolean; data: { html: string; metadata: object } };
    expect(response).toMatchObject({ success: true, data: { metadata: { sourceURL: 'report.xlsx', numSheets: 2 } } });
    expect(response.data.html).toMatch(/<table/);
    // the type is told from the bytes when the command line gives none (it read "" before)
    expect(response.data.metadata).toMatchObject({
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    const pdf = await run(['parse', 'scan.pdf', '--pdf-mode', 'fast', '--json']);
    expect((JSON.parse(pdf.stdout) as { data: { metadata: object } }).data.metadata).toMatchObject({
      contentType: 'application/pdf',
    });
    const out = await run(['parse', 'report.docx', '--out', 'out']);
    expect(out.code).toBe(0);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['manifest.json', 'report-docx.json', 'report-docx.md']);
  });

  it('leaves no store behind, as it stores nothing, unless --store names one', async () => {
    const cwd = join(dir, 'parse-here');
    mkdirSync(cwd);
    const parsed = await runCli(['parse', join(dir, 'sales.csv')], { cwd, process: true });
    expect(parsed).toMatchObject({ code: 0, stdout: '| Region | Sales |\n| --- | --- |\n| North | 120 |\n' });
    expect(readdirSync(cwd)).toEqual([]);
    expect((await runCli(['parse', join(dir, 'sales.csv'), '--store', 'named'], { cwd })).code).toBe(0);
    expect(readdirSync(cwd)).toEqual(['named']);
  });

  it('reads the scanned page by OCR unless --pdf-mode fast', async () => {
    // OCR's first use in a process loads its engine and language: past the default 10 s budget on a loaded machine
    const auto = await run(['parse', 'scan.pdf', '--extraction-budget', '60000']);
    expect(auto.stdout).toContain('Invoice 4521');
    const fast = await run(['parse', 'scan.pdf', '--pdf-mode', 'fast']);
    expect(fast.stdout.trim()).toBe('Text layer page two');
  });

  it("reads a PDF past the 1,000-page cap with --pdf-max-pages, which the cap's warning names", async () => {
    const capped = await run(['parse', 'long.pdf', '--json']);
    expect(capped.code).toBe(0);
    expect(JSON.parse(capped.stdout)).toMatchObject({ data: { metadata: { numPages: 1000 } } });
    expect(capped.stderr).toMatch(/first 1000 of 1005 PDF pages .*set --pdf-max-pages/);
    const all = await run(['parse', 'long.pdf', '--pdf-max-pages', '1005', '--json']);
    expect(all.code).toBe(0);
    const whole = JSON.parse(all.stdout) as { data: { metadata: { numPages: number }; warning?: string } };
    expect(whole.data.metadata.numPages).toBe(1005);
    expect(whole.data.warning).toBeUndefined();
    const tooMany = await run(['parse', 'long.pdf', '--pdf-max-pages', '20000']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/^crawlkit: --pdf-max-pages: .*maxPages: Too big/);
  });

  it('takes the extraction budget a document past it names (--extraction-budget)', async () => {
    // 1 ms: any spreadsheet's conversion passes it
    const cut = await run(['parse', 'report.ods', '--extraction-budget', '1']);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(
      /took longer than the extraction budget \(extractionBudgetMs: 1 ms\); raise `extractionBudgetMs` \(--extraction-budget\)/,
    );
    expect(cut.stderr).toMatch(/SCRAPE_DOCUMENT_TIMEOUT/);
    // a PDF cut between pages: its warning names the flag too. Enough pages that 1 ms cannot read them all (200 take
    // 25 ms or more): the pool's warm thread read the 3 pages of manual.pdf whole in about 1 ms in 1 run of 5, rightly
    // without a warning (docs/qa-budget-flake.md)
    writeFileSync(
      join(dir, 'manual.pdf'),
      makePdf(
        'Manual',
        Array.from({ length: 200 }, (_, i) => [`Page ${i + 1}`, 'A line of the manual.']),
      ),
    );
    const pdf = await run(['parse', 'manual.pdf', '--extraction-budget', '1']);
    expect(pdf.code).toBe(0);
    expect(pdf.stderr).toMatch(/Only the first \d+ of 200 PDF pages were parsed before the extraction time ran out/);
    expect(pdf.stderr).toMatch(/raise `extractionBudgetMs` \(--extraction-budget\) to read the rest/);
    const raised = await run(['parse', 'report.ods', '--extraction-budget', '60000']);
    expect(raised).toMatchObject({ code: 0, stdout: expect.stringContaining('| North |') });
    const bad = await run(['parse', 'report.ods', '--extraction-budget', 'soon']);
    expect(bad).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Expected --extraction-budget to be a positive integer'),
    });
  });

  it('refuses a file past its limit before any work, naming --parse-file-limit, and takes a larger one', async () => {
    const small = await run(['parse', 'sales.csv', '--parse-file-limit', '8']);
    expect(small.code).toBe(1);
    expect(small.stderr).toMatch(/PAYLOAD_TOO_LARGE/);
    expect(small.stderr).toMatch(
      /The file is 23 bytes, larger than the parse limit of 8 bytes: raise the engine option `parseFileLimit` \(--parse-file-limit\)/,
    );
    expect(await run(['parse', 'sales.csv', '--parse-file-limit', '23'])).toMatchObject({ code: 0 });
  });

  it('refuses a file past its limit from its size, without reading it', async () => {
    // 3 GiB, sparse (no disk): read whole first, it failed with Node's "File size … is greater than 2 GiB" (a 200 MB
    // scan took 400 MB of memory to be refused)
    const huge = join(dir, 'huge-scan.pdf');
    writeFileSync(huge, '');
    truncateSync(huge, 3 * 1024 ** 3);
    for (const args of [['huge-scan.pdf'], ['huge-scan.pdf', 'sales.csv']]) {
      const answer = await run(['parse', ...args, '--json']);
      expect(answer.stdout).toContain('"code": "PAYLOAD_TOO_LARGE"');
      expect(answer.stdout).toContain('The file is 3072 MiB, larger than the parse limit of 50 MiB');
    }
    rmSync(huge);
  });

  it('takes the memory of the extraction workers that a page past it names (--worker-memory)', async () => {
    // ~4 MB of markup: its extraction needs 96-128 MiB, well past 64 (at half the rows it needed 64-80 MiB, and under
    // load its worker once got through in 64) and well under the 1,024 MiB of the default
    const rows = Array.from(
      { length: 60_000 },
      (_, i) => `<div><p>Paragraph ${i} <b>bold</b> <a href="/p${i}">link</a></p></div>`,
    );
    writeFileSync(join(dir, 'large.html'), `<html><body>${rows.join('')}</body></html>`);
    const cut = await run(['parse', 'large.html', '--worker-memory', '64']);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(
      /more than workers\.maxMemoryMb \(64 MiB\).*Raise `workers\.maxMemoryMb` \(--worker-memory\)/,
    );
    expect(cut.stderr).toMatch(/SCRAPE_PAGE_TOO_COMPLEX/);
    const small = await run(['parse', 'sales.csv', '--worker-memory', '32']);
    expect(small).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/`workers\.maxMemoryMb` \(--worker-memory\).*>=64/),
    });
  });

  it('converts every file under a directory, and several paths (a glob), one failing file costing no other', async () => {
    const share = join(dir, 'share');
    mkdirSync(join(share, 'q3'), { recursive: true });
    mkdirSync(join(share, '.git'));
    writeFileSync(join(share, '.git', 'config'), '[core]\n');
    writeFileSync(join(share, 'report.docx'), await makeDocx());
    writeFileSync(join(share, 'q3', 'report.docx'), await makeDocx());
    writeFileSync(join(share, 'q3', 'sales.csv'), 'Region,Sales\nNorth,120\n');
    writeFileSync(join(share, 'empty.pdf'), '');
    writeFileSync(join(share, 'truncated.docx'), (await makeDocx()).subarray(0, 3000));
    writeFileSync(
      join(share, 'old.xls'),
      readFileSync(new URL('../packages/documents/src/__fixtures__/report.xls', import.meta.url)),
    );

    const out = await run(['parse', 'share', '--out', 'share-md']);
    expect(out.code, out.stderr).toBe(0);
    // named by their path under the directory: the two report.docx do not collide; hidden files are skipped
    expect(readdirSync(join(dir, 'share-md')).sort()).toEqual([
      'manifest.json',
      'q3-report-docx.json',
      'q3-report-docx.md',
      'q3-sales-csv.json',
      'q3-sales-csv.md',
      'report-docx.json',
      'report-docx.md',
    ]);
    expect(readFileSync(join(dir, 'share-md', 'q3-report-docx.md'), 'utf8').trim()).toBe(golden('docx'));
    const manifest = JSON.parse(readFileSync(join(dir, 'share-md', 'manifest.json'), 'utf8')) as {
      command: string;
      total: number;
      completed: number;
      pages: { url: string }[];
      errors: { url: string; code: string }[];
    };
    expect(manifest).toMatchObject({ command: 'parse', total: 6, completed: 3 });
    expect(manifest.pages.map((p) => p.url)).toEqual(['q3/report.docx', 'q3/sales.csv', 'report.docx']);
    expect(manifest.errors).toEqual([
      { url: 'empty.pdf', code: 'BAD_REQUEST', error: 'The file is empty.' },
      {
        url: 'old.xls',
        code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
        error: expect.stringMatching(/Save the workbook as .xlsx/),
      },
      {
        url: 'truncated.docx',
        code: 'SCRAPE_DOCUMENT_PARSE_ERROR',
        error: expect.stringMatching(/^The file is named truncated\.docx, but its bytes are not in the DOCX format/),
      },
    ]);
    expect(out.stderr).toMatch(/^parse: 3 documents, 3 errors, 3 credits; written to share-md$/m);
    expect(out.stderr).toMatch(/^ {2}failed: empty\.pdf: The file is empty\. \(BAD_REQUEST\)$/m);

    // several paths print each document under its name, in the order given; --json answers them all
    const text = await run(['parse', 'sales.csv', 'share/q3/sales.csv']);
    expect(text.stdout).toBe(
      '<!-- sales.csv -->\n\n| Region | Sales |\n| --- | --- |\n| North | 120 |\n\n' +
        '<!-- share/q3/sales.csv -->\n\n| Region | Sales |\n| --- | --- |\n| North | 120 |\n\n',
    );
    const json = await run(['parse', 'share/q3', 'share/empty.pdf', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      success: true,
      total: 3,
      completed: 2,
      creditsUsed: 2,
      data: [{ metadata: { sourceURL: 'report.docx' } }, { metadata: { sourceURL: 'sales.csv' } }],
      errors: [{ url: 'share/empty.pdf', code: 'BAD_REQUEST' }],
    });
    expect(json.code).toBe(0);
    // --strict: done with a file failed exits 3 (for a cron job), done with none 0
    expect((await run(['parse', 'share/q3', 'share/empty.pdf', '--strict'])).code).toBe(3);
    expect((await run(['parse', 'share/q3', '--strict'])).code).toBe(0);
    // nothing converted: exit 1; an option every file would fail on: exit 2 at once
    expect((await run(['parse', 'share/empty.pdf', 'share/old.xls'])).code).toBe(1);
    const bad = await run(['parse', 'share', '--pdf-mode', 'sometimes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^crawlkit: --pdf-mode: .*mode/);
    expect((await run(['parse', join(dir, 'share', '.git', 'none')])).code).toBe(2);
  });

  it('exits 2 for a missing file or a bad option, 1 for a file it cannot read', async () => {
    const missing = await run(['parse', 'nope.docx']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read nope.docx/);
    const url = await run(['parse', 'https://example.com/report.pdf']);
    expect(url.code).toBe(2);
    expect(url.stderr).toBe(
      'crawlkit: https://example.com/report.pdf is a URL, not a local file: `crawlkit scrape https://example.com/report.pdf` fetches and converts it (CLI_USAGE)\n',
    );
    const bad = await run(['parse', 'report.docx', '--pdf-mode', 'sometimes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/mode/);
    writeFileSync(join(dir, 'broken.docx'), 'not a zip');
    const broken = await run(['parse', 'broken.docx', '--content-type', 'application/msword']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/SCRAPE_DOCUMENT_PARSE_ERROR/);
  });
});
