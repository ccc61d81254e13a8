import { getHeapSnapshot } from 'node:v8';

import { describe, expect, it } from 'vitest';

import { extractPage } from './page.js';

/** A page of ~300 KB whose text starts with `marker`, with class names of its own (as each site has), some of them
 * the kind the content rules ask about (navigation, main). */
function bigPage(marker: string, n: number): string {
  const card = (i: number) =>
    `<div class="story-card site${n}-card-${i} category-news"><h2>Story ${i}</h2>` +
    `<p>${'A sentence of the story that reads like prose. '.repeat(12)}</p></div>`;
  return (
    `<!doctype html><!--${marker}--><html><head><title>Page ${n}</title></head><body>` +
    `<nav class="site-navigation main-menu-${n}"><a href="/">Home</a></nav><main class="content-area site-main-${n}">` +
    Array.from({ length: 500 }, (_, i) => card(i)).join('') +
    `</main></body></html>`
  );
}

/** The markers among the strings the heap holds (a snapshot collects garbage first). */
async function markersInHeap(prefix: string): Promise<Set<string>> {
  const found = new Set<string>();
  const pattern = new RegExp(`${prefix}\\d+`, 'g');
  let tail = '';
  for await (const chunk of getHeapSnapshot()) {
    const text = tail + String(chunk);
    for (const m of text.matchAll(pattern)) found.add(m[0]);
    tail = text.slice(-64);
  }
  return found;
}

/**
 * Extracts six pages and answers how many of their markdowns hold their last story. A plain function that has
 * returned by the time the heap is read: the pages, their outputs and the assertions' values live in its frame only.
 * Then a seventh page without a marker: a slot that holds the last subject of whatever ran last (V8 keeps the last
 * regular expression's input until the next one runs) holds it, not a marked page. The leak this test guards keeps
 * every page; one slot kept the last page alone in 2 CI runs of ~30, before and after the frame above.
 */
function extractSix(prefix: string): number {
  let complete = 0;
  for (let n = 0; n < 6; n++) {
    const out = extractPage(bigPage(`${prefix}${n}`, n), {
      url: `https://example.com/${n}`,
      formats: { markdown: true },
    });
    if (out.markdown?.includes('Story 499')) complete++;
  }
  extractPage(bigPage('the last page, unmarked', 6), { url: 'https://example.com/6', formats: { markdown: true } });
  return complete;
}

describe('extractPage and memory', () => {
  it('keeps no page alive once it has answered (nothing that outlives a page holds a slice of its text)', async () => {
    // A substring of a long string keeps all of it alive in V8: a cache across pages keyed by an attribute's value
    // (a slice of the page) kept every page it had met, up to its entry cap: hundreds of MB in a worker of a batch.
    const prefix = ['retained', 'page', 'marker', ''].join('-');
    expect(extractSix(prefix)).toBe(6);
    expect([...(await markersInHeap(prefix))]).toEqual([]);
  });
});
