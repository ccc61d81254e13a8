/**
 * A PDF whose later page alone runs a second past the extraction budget: its worker is stopped mid-page (pdf.js reads
 * a page's content in one synchronous run, where the worker's own deadline check cannot come), and the pages it read
 * before come back with the budget's warning, as a cut between pages gives them.
 */
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { data } from './helpers/scrape.ts';

const BUDGET_MS = 3_000;
const env = useFixtureEngine({ crawlkit: { store: 'memory', engine: 'http', extractionBudgetMs: BUDGET_MS } });

/** Two pages: the first a line of text, the second 100,000 text operators (7 s to read, warm, without load). */
function slowSecondPage(): Uint8Array {
  const fast = 'BT /F1 12 Tf 72 720 Td (The first page reads at once.) Tj ET';
  const slow = `BT /F1 10 Tf 72 720 Td ${'(word) Tj 0.01 0 Td '.repeat(100_000)}ET`;
  const page = (contents: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents ${contents} 0 R >>`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    page(6),
    page(7),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${fast.length} >>\nstream\n${fast}\nendstream`,
    `<< /Length ${slow.length} >>\nstream\n${slow}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

describe('a PDF page still being read a second past the extraction budget', () => {
  it('returns the pages read before it, with the warning naming extractionBudgetMs', async () => {
    const response = await env.ck.parse({ data: slowSecondPage(), filename: 'slow.pdf' }, { timeout: 120_000 });
    const doc = data(response);
    expect(doc.markdown).toContain('The first page reads at once.');
    expect(doc.markdown).not.toContain('word');
    expect(doc.metadata).toMatchObject({ numPages: 1, totalPages: 2, creditsUsed: 1 });
    expect(doc.warning).toContain('Only the first 1 of 2 PDF pages were parsed before the extraction time ran out.');
    expect(doc.warning).toContain(`The extraction budget (extractionBudgetMs: ${BUDGET_MS} ms) ran out`);
  });
});
