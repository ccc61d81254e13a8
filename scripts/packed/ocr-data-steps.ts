/**
 * OCR in a packed install without its language data: `@tesseract.js-data/eng` (a dependency of @crawlkit/documents)
 * moved out of node_modules, as a user who pruned it or a deployment that left it out has it. A PDF whose OCR is
 * demanded (`mode: 'ocr'`) is refused with `SCRAPE_OCR_DATA_MISSING` and the command that installs the data; in `auto`
 * its text-layer page keeps its text, with a warning naming that command. The package is put back after the step.
 * Through the library, so the PDF goes through crawlkit's bundled extraction worker, as a user's does.
 */
import { strict as assert } from 'node:assert';
import { renameSync } from 'node:fs';
import { join } from 'node:path';

import { script, type Step } from './steps.ts';

const INSTALL = /npm install @tesseract\.js-data\/eng@\^1\.0\.0/;

interface Scraped {
  success: boolean;
  code?: string;
  error?: string;
  data?: { markdown?: string; warning?: string; metadata?: { numPages?: number } };
}

const ocrDataMissing: Step = {
  name: 'OCR without its language data: ocr refused with the install, auto keeps the text layer',
  run: async (ctx) => {
    const data = join(ctx.dir, 'node_modules/@tesseract.js-data/eng');
    const aside = join(ctx.dir, 'tesseract-eng-aside');
    renameSync(data, aside);
    try {
      const out = await script(
        ctx,
        'ocr-data.mjs',
        `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const scrape = (mode) => ck.scrape({ url: '${ctx.site}/scanned.pdf', parsers: [{ type: 'pdf', mode }] });
const ocr = await scrape('ocr');
const auto = await scrape('auto');
await ck.close();
console.log(JSON.stringify({ ocr, auto }));`,
      );
      const { ocr, auto } = JSON.parse(out) as { ocr: Scraped; auto: Scraped };
      assert.equal(ocr.success, false, out);
      assert.equal(ocr.code, 'SCRAPE_OCR_DATA_MISSING', out);
      assert.match(ocr.error ?? '', INSTALL);
      assert.doesNotMatch(ocr.error ?? '', /Require stack|could not be rendered/);
      assert.equal(auto.success, true, out);
      assert.match(auto.data?.markdown ?? '', /Text layer page two/);
      assert.equal(auto.data?.metadata?.numPages, 2);
      assert.match(auto.data?.warning ?? '', /1 PDF page has no text layer and was not read by OCR/);
      assert.match(auto.data?.warning ?? '', INSTALL);
    } finally {
      renameSync(aside, data);
    }
  },
};

export const ocrDataSteps: Step[] = [ocrDataMissing];
