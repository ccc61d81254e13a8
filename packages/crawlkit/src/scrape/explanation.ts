/**
 * "Where did my paragraph go?" from a scrape: with `DEBUG=crawlkit:explain` (named: `crawlkit:*` does not include it),
 * each HTML page a scrape extracts is explained as `crawlkit explain` prints it (every block, kept or dropped, the
 * rule that decided, and the includeTags that would keep a dropped paragraph); the same is published on the
 * `crawlkit:scrape:explain` diagnostics channel. The worker explains the page beside its extraction only while one of
 * them listens.
 */
import { channel } from 'node:diagnostics_channel';

import type { ExplainedBlock, ExplainedPage } from '@crawlkit/extractor';
import { createDebug } from 'obug';

const debugExplain = createDebug('crawlkit:explain');

/**
 * Published once per explained page: `subscribe('crawlkit:scrape:explain', ...)` from `node:diagnostics_channel`.
 * The payload is `ScrapeExplanation`.
 */
export const explanationChannel = channel('crawlkit:scrape:explain');

/** What `explanationChannel` publishes. */
export interface ScrapeExplanation {
  /** The page's URL (after redirects). */
  url: string;
  page: ExplainedPage;
}

/**
 * Whether `DEBUG` names `crawlkit:explain` itself: explaining a page costs several extractions of it (the suggestions
 * are checked), so `DEBUG=crawlkit:*` or `*`, asked for logs, does not turn it on.
 */
const namedInDebug = (process.env.DEBUG ?? '').split(/[\s,]+/).includes('crawlkit:explain');

/** Whether anybody reads explanations: otherwise no page is explained. */
export function explanationWanted(): boolean {
  return (namedInDebug && debugExplain.enabled) || explanationChannel.hasSubscribers;
}

/** Reports a page's explanation to the debug namespace and the channel, when either listens. */
export function reportExplanation(url: string, page: ExplainedPage): void {
  if (namedInDebug && debugExplain.enabled) debugExplain(explanationText(url, page, page.blocks, false));
  if (explanationChannel.hasSubscribers) explanationChannel.publish({ url, page } satisfies ScrapeExplanation);
}

/** Characters of a block's text on its line. */
const TEXT_WIDTH = 72;

/**
 * The text `crawlkit explain` prints: the page's main-content source, then one line per block of `blocks`; with
 * `found` (or a suggestion), where each sits, why, and the options that would keep or drop it.
 */
export function explanationText(url: string, page: ExplainedPage, blocks: ExplainedBlock[], found: boolean): string {
  const kept = page.blocks.filter((b) => b.verdict === 'kept').length;
  const lines = [
    `${url}`,
    `main content: ${page.source}${page.container.length ? ` (${page.container.join(', ')})` : ''}; ${page.blocks.length} blocks, ${kept} kept, ${page.blocks.length - kept} dropped`,
    '',
  ];
  const ruleWidth = Math.max(4, ...blocks.map((b) => b.rule.length));
  for (const b of blocks) {
    const text = b.text.length > TEXT_WIDTH ? `${b.text.slice(0, TEXT_WIDTH - 1)}…` : b.text;
    lines.push(
      `${String(b.index).padStart(4)}  ${b.verdict.padEnd(7)}  ${b.rule.padEnd(ruleWidth)}  ${b.tag.padEnd(10)} ${text}`,
    );
    if (!found && !b.suggestion) continue;
    lines.push(`      at ${b.selector}${b.decidedAt ? `, removed with ${b.decidedAt}` : ''}`);
    lines.push(`      ${b.reason}${b.module ? ` (${b.module})` : ''}`);
    const s = b.suggestion;
    if (s?.includeTags) {
      lines.push(
        `      kept with: --include-tags '${s.includeTags.join(',')}'${s.onlyMainContent === false ? ' --no-only-main-content' : ''}${s.checked ? '' : ' (not checked)'}`,
      );
    } else if (s?.excludeTags) lines.push(`      dropped with: --exclude-tags '${s.excludeTags.join(',')}'`);
    else if (b.verdict === 'dropped' && b.rule !== 'exclude-tags') {
      lines.push('      no includeTags found that keeps it (checked)');
    }
  }
  return `${lines.join('\n')}\n`;
}
