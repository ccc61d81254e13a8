// The article precision view of bench/extract.ts: which main-content tokens fall outside the WCXB reference, by the
// extractor rule that kept them.
import * as extractor from '@crawlkit/extractor';

import type { WcxbPage } from './wcxb.ts';

/** Lower-cased word tokens, as score-wcxb.mjs counts them. */
const tokensOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

function countTokens(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokensOf(text)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

export interface PrecisionView {
  /** Article pages looked at. */
  pages: number;
  /** Mean share of output tokens outside the reference (text of the main content, before markdown). */
  outside: number;
  /** The same, split by the rule that kept the tokens; `pages` counts the pages where the rule kept any. */
  rules: { rule: string; pages: number; outside: number; tokens: number }[];
}

/**
 * The article precision view: for each article page, which tokens of the main content are outside the reference
 * (bag of words, as the scorer counts), and which rule of the extractor kept them (`findMainContent` with
 * `explain`). A token outside the reference is shared among the rules that kept its occurrences.
 */
export function precisionView(pages: WcxbPage[], type = 'article'): PrecisionView {
  const byRule = new Map<string, { pages: number; outside: number; tokens: number }>();
  let n = 0;
  let outside = 0;
  for (const page of pages) {
    if (page.type !== type) continue;
    n++;
    const found = extractor.findMainContent(extractor.parseHtml(page.html), { url: page.url, explain: true });
    const ref = countTokens(page.reference);
    const perRule = Object.entries(found.keptBy ?? {}).map(([rule, text]) => [rule, countTokens(text)] as const);
    const all = new Map<string, number>();
    let total = 0;
    for (const [, counts] of perRule) {
      for (const [t, c] of counts) {
        all.set(t, (all.get(t) ?? 0) + c);
        total += c;
      }
    }
    if (total === 0) continue;
    for (const [rule, counts] of perRule) {
      let extra = 0;
      let kept = 0;
      for (const [t, c] of counts) {
        kept += c;
        const over = all.get(t)! - (ref.get(t) ?? 0);
        if (over > 0) extra += (over * c) / all.get(t)!;
      }
      const row = byRule.get(rule) ?? { pages: 0, outside: 0, tokens: 0 };
      if (kept > 0) row.pages++;
      row.outside += extra / total;
      row.tokens += kept;
      byRule.set(rule, row);
      outside += extra / total;
    }
  }
  return {
    pages: n,
    outside: outside / (n || 1),
    rules: [...byRule]
      .map(([rule, r]) => ({ rule, pages: r.pages, outside: r.outside / (n || 1), tokens: r.tokens }))
      .sort((a, b) => b.outside - a.outside),
  };
}
