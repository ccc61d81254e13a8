// Label–value pairs repeated list by list (`repeated-facts.ts`): a poster's statistics beside each post go, a page's
// own definitions stay.
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extract, page, prose } from './__fixtures__/synthetic-page.js';

/** A phpBB post: the poster's profile (name, rank, "Founded:", "Region:") beside the post's text. */
const post = (i: number): string =>
  `<div class="post" id="p${i}"><div class="postbody"><div class="content">${prose(`post${i}`, 1)}</div></div><dl class="postprofile"><dt><a href="./memberlist.php?u=${i}">poster${i}</a></dt><dd>Rank ${i}</dd><dd><strong>Founded:</strong> Dec 1${i}, 2021</dd><dd><strong>Region:</strong> Lowlands ${i}</dd></dl></div>`;

const thread = (posts: number): string =>
  page(
    `<div id="page-body"><h2 class="topic-title">Which league starts first this season?</h2>${Array.from({ length: posts }, (_, i) => post(i)).join('')}</div>`,
  );

describe("extractMainContent: facts repeated item by item (a poster's statistics)", () => {
  it('drops the labelled figures of every post, keeps the posts and the posters', () => {
    const { text } = extract(thread(4));
    for (let i = 0; i < 4; i++) {
      expect(text).toContain(`post${i} paragraph 1`);
      expect(text).toContain(`poster${i}`);
    }
    for (const gone of ['Founded:', 'Region:', 'Lowlands 1', 'Dec 12, 2021']) expect(text).not.toContain(gone);
  });

  it('drops term and definition pairs repeated in lists of one pair each (Messages, Likes received)', () => {
    const pair = (term: string, value: string): string => `<dl class="pairs"><dt>${term}</dt><dd>${value}</dd></dl>`;
    const posts = Array.from(
      { length: 3 },
      (_, i) =>
        `<article class="message"><div class="message-user"><a href="/members/m${i}">member${i}</a>${pair('Messages:', `1,2${i}4`)}${pair('Likes Received:', `5${i}`)}</div><div class="bbWrapper">${prose(`reply${i}`, 1)}</div></article>`,
    ).join('');
    const { text } = extract(page(`<div class="thread"><h1>Forums in the age of social media</h1>${posts}</div>`));
    expect(text).toContain('reply2 paragraph 1');
    for (const gone of ['Messages', 'Likes Received', '1,214']) expect(text).not.toContain(gone);
  });

  it("keeps a label found in only two lists, a glossary's terms, and an API's fields holding code", () => {
    expect(extract(thread(2)).text).toContain('Founded:');
    const glossary = `<dl>${['Cache', 'Crawl', 'Frontier', 'Scrape']
      .map((t) => `<dt>${t}</dt><dd>What a ${t.toLowerCase()} is, in a short line.</dd>`)
      .join('')}</dl>`;
    const field = (name: string): string =>
      `<h3>${name}()</h3><p>Runs the ${name} step of a job and reports what it did to the caller.</p><dl class="field-list"><dt>Returns:</dt><dd><code>Promise&lt;Result&gt;</code></dd></dl>`;
    const { text } = extract(
      page(
        `<main><h1>Reference</h1>${prose('intro', 2)}${glossary}${['start', 'pause', 'resume'].map(field).join('')}</main>`,
      ),
    );
    expect(text).toContain('Frontier');
    expect(text).toContain('What a scrape is');
    expect(text.split('Returns:').length - 1).toBe(3);
    expect(text).toContain('Promise<Result>');
  });

  it('keeps the field lists of documented functions, which sit in the definition of each function', () => {
    const fn = (name: string): string =>
      `<dl class="py function"><dt class="sig"><code>${name}(path)</code></dt><dd><p>Tells whether the job may ${name} the page at path, by the rules of its site.</p><dl class="field-list"><dt>Return type:</dt><dd><a href="#bool"><em>bool</em></a></dd></dl></dd></dl>`;
    const { text } = extract(
      page(`<main><h1>robots</h1>${prose('intro', 2)}${['fetch', 'crawl', 'index'].map(fn).join('')}</main>`),
    );
    expect(text.split('Return type:').length - 1).toBe(3);
  });

  it('names its rule in explain', () => {
    const block = explainPage(thread(4), { url: 'https://forum.example/viewtopic.php?t=1' }).blocks.find((b) =>
      b.text.includes('Founded:'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'repeated-facts', module: 'repeated-facts.ts' });
  });
});
