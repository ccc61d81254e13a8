/** extractMainContent on Q&A pages: a post's vote count, a number standing alone beside it, is not the post's text. */
import { describe, expect, it } from 'vitest';

import { extract, page, prose } from './__fixtures__/synthetic-page.js';

const post = (votes: string, body: string): string =>
  `<div class="post-layout"><div class="votecell"><button>Up vote</button><div class="vote-count">${votes}</div><button>Down vote</button></div><div class="postcell">${body}</div></div>`;

const thread = (votes: string[]): string =>
  `<div id="mainbar"><div id="question-header"><h1>How do I back up my whole system?</h1></div><div class="question">${post(votes[0]!, prose('question', 2))}</div><div id="answers">${votes
    .slice(1)
    .map(
      (v, i) =>
        `<div class="answer">${post(v, `${prose(`answer ${i + 1}`, 2)}<table><tr><td>Disk</td><td>2048</td></tr></table><ol><li>17</li><li>Copy the files.</li></ol>`)}</div>`,
    )
    .join('')}</div></div>`;

describe('extractMainContent: vote counts on Q&A pages', () => {
  it('drops the number beside each post on a page that declares itself a QAPage, not numbers in tables or lists', () => {
    const html = page(thread(['4731', '-27', '1.2k'])).replace(
      '<body>',
      '<body itemscope itemtype="https://schema.org/QAPage">',
    );
    const { text } = extract(html);
    expect(text).toContain('question paragraph 1');
    expect(text).toContain('answer 2 paragraph 2');
    for (const votes of ['4731', '-27', '1.2k']) expect(text).not.toContain(votes);
    expect(text).toContain('2048');
    expect(text).toContain('17');
  });

  it('keeps a number standing alone on a page that does not declare itself a Q&A page', () => {
    const { text } = extract(page(thread(['4731', '-27', '1.2k'])));
    expect(text).toContain('1.2k');
  });
});
