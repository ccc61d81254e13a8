/**
 * Office documents in the packed install: their reader, officeparser, is an optional peer dependency (it pins a
 * pdf.js and a canvas of its own, about 100 MB crawlkit never runs). Without it a DOCX is refused with the command
 * that installs it; once installed, the same DOCX converts. Runs after the other steps: the install it makes stays.
 */
import { strict as assert } from 'node:assert';

import { refused, script, type Step } from './steps.ts';

/** A DOCX scraped before officeparser is installed: the error names the package and the command. */
const readerMissing = refused(
  'a DOCX without officeparser says what to install',
  '/report.docx',
  'SCRAPE_DOCUMENT_READER_MISSING',
  /npm install officeparser@\^8\.1\.1/,
);

/** `npm install officeparser` beside crawlkit, then the same DOCX converts to markdown. */
const readerInstalled: Step = {
  name: 'a DOCX converts once officeparser is installed',
  run: async (ctx) => {
    ctx.npmInstall('officeparser@^8.1.1');
    const out = await script(
      ctx,
      'office.mjs',
      `import { Crawlkit } from 'crawlkit';
const ck = new Crawlkit({ store: 'memory', engine: 'http' });
const result = await ck.scrape({ url: '${ctx.site}/report.docx' });
await ck.close();
console.log(JSON.stringify({ success: result.success, code: result.code, markdown: result.data?.markdown }));`,
    );
    const result = JSON.parse(out) as { success: boolean; code?: string; markdown?: string };
    assert.equal(result.success, true, out);
    assert.match(result.markdown ?? '', /# Quarterly Report/);
  },
};

export const officeSteps: Step[] = [readerMissing, readerInstalled];
