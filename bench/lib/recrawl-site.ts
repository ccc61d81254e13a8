// The site of the recrawl benchmarks (bench/recrawl.ts, bench/recrawl-floor.ts): a home page and `pages - 1` pages of
// about 7 KB of text each, with validators and a sitemap, unchanged since 2026-01-01.
import { startChangingSite, type ChangingPage, type ChangingSite } from '../../fixtures/changing-site.ts';

const words = 'plane iron bevel hone strop burr edge angle stone grit flatten back chip breaker sole mouth'.split(' ');

function pageText(index: number): string {
  const paragraphs: string[] = [];
  for (let p = 0; p < 30; p++) {
    const sentence: string[] = [];
    for (let w = 0; w < 36; w++) sentence.push(words[(index * 7 + p * 13 + w * 5) % words.length]!);
    paragraphs.push(`Paragraph ${p} of page ${index}: ${sentence.join(' ')}.`);
  }
  return paragraphs.join('\n');
}

/** Starts the site on 127.0.0.1: `pages` pages in all, the home page counted. */
export function startRecrawlSite(pages: number): Promise<ChangingSite> {
  const initial: Record<string, ChangingPage> = {};
  for (let i = 0; i < pages - 1; i++) {
    initial[`/p/${i}.html`] = { title: `Page ${i}`, text: pageText(i), modifiedAt: Date.UTC(2026, 0, 1) };
  }
  return startChangingSite(initial);
}
