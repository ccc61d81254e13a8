// The byline and dateline at the head of an article made one compact line: news and blog pages built like real ones.
import { getElementsByTagName, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { extractPage } from '../page.js';
import { extractMainContent } from './extract.js';
import { articleHead, expectOnly, markdownOf, newsPage, shareIcons, story, URL } from './__fixtures__/news-site.js';

const title = 'Council approves new bike lanes on Harbour Road';

/** The story's body without its title and byline. */
const paragraphs = story.replace(/^.*?<div class="txt">/s, '').replace('</div></article>', '');

const related = `<section class="related-stories"><h2>Related stories</h2><ul><li><a href="/news/ferry-timetable">Ferry timetable changes from April</a></li><li><a href="/news/mill-flats">Old mill flats get planning approval</a></li><li><a href="/news/bus-lanes">Bus lanes on the ring road: a year on</a></li></ul></section>`;

const comments = `<section id="comments" class="comments"><h2>Comments (2)</h2><div class="comment"><img class="avatar" src="/u/1.png" alt=""><b>cyclist_mo</b> <time datetime="2026-03-09T15:10">9 March 2026</time><p>About time. I ride this road every day and the parked vans make it dangerous, especially near the market in the morning.</p></div><div class="comment"><img class="avatar" src="/u/2.png" alt=""><b>harbourview</b> <time datetime="2026-03-09T16:02">9 March 2026</time><p>What about deliveries to the shops? Nobody asked the traders on the north side, and losing all that parking will hurt them.</p></div></section>`;

/** The lines of `markdown` that hold text. */
const lines = (markdown: string): string[] => markdown.split('\n').filter((l) => l.trim() !== '');

describe('bylines and datelines: one compact line after the title', () => {
  it('news page: an avatar, "By", a linked author, a <time> and the reading time become one line under the title', () => {
    const head = `<div class="story-head"><span class="flag">Breaking news</span><h1>${title}</h1><div class="byline"><img class="byline__avatar" src="/staff/jane-doe.jpg" alt="Jane Doe"><div class="byline__author"><span>By</span> <a href="/staff/jane-doe" rel="author">Jane Doe</a></div><span class="byline__sep">|</span><div class="byline__date"><time datetime="2026-03-09T14:05">9 March 2026, 14:05</time></div><div class="byline__extra">Transport reporter</div></div><div class="reading-time">4 min read</div></div>`;
    const html = newsPage(
      `<article class="story">${head}${shareIcons}<div class="txt">${paragraphs}</div>${related}${comments}</article>`,
      {
        head: articleHead,
      },
    );
    const out = extractPage(html, { url: URL, onlyMainContent: true, formats: { markdown: true, html: true } });
    const markdown = out.markdown ?? '';
    const byline = 'By [Jane Doe](https://courier.example/staff/jane-doe) · 9 March 2026, 14:05 · Transport reporter';
    expect(lines(markdown).slice(0, 3)).toEqual([
      `# ${title}`,
      byline,
      'The city council voted 7 to 2 on Monday evening to add protected bike lanes along Harbour Road, between the ferry terminal and the old mill.',
    ]);
    expectOnly(
      markdown,
      ['eleven collisions'],
      ['jane-doe.jpg', 'Breaking news', 'min read', 'Ferry timetable', 'cyclist_mo'],
    );
    // the HTML format is the same content: one paragraph, the link and the <time> kept
    expect(out.html).toContain(
      '<p>By <a href="https://courier.example/staff/jane-doe">Jane Doe</a> · <time datetime="2026-03-09T14:05">9 March 2026, 14:05</time> · Transport reporter</p>',
    );
  });

  it('blog post: the meta block after the title, one piece a line, becomes one line; labels stay with their names', () => {
    const post = `<article class="post type-post"><header class="entry-header"><h1 class="entry-title">${title}</h1><div class="entry-meta"><div class="author-avatar"><img src="/wp-content/uploads/sam.jpg" alt="Sam Hill"></div><div class="meta-author">Written by</div><div class="meta-name"><a href="/author/sam-hill/">Sam Hill</a></div><div class="meta-date">Updated on</div><div class="meta-date-value">March 12, 2026</div></div></header><div class="text">${paragraphs}</div></article>`;
    const { markdown } = markdownOf(newsPage(post));
    expect(lines(markdown).slice(0, 2)).toEqual([
      `# ${title}`,
      'Written by [Sam Hill](https://courier.example/author/sam-hill/) · Updated on March 12, 2026',
    ]);
    // the content itself holds the line: one paragraph right after the <h1>
    const doc = extractMainContent(parseDocument(newsPage(post)), { url: URL });
    const h1 = getElementsByTagName('h1', doc)[0]!;
    const next = h1.nextSibling;
    expect(next && 'name' in next ? next.name : null).toBe('p');
    expect(textContent(next!)).toBe('Written by Sam Hill · Updated on March 12, 2026');
    expect(getElementsByTagName('img', doc)).toHaveLength(0);
  });

  it('a dateline above the title goes right after it', () => {
    const head = `<div class="story-top"><div class="post-date"><time datetime="2026-03-09">9 March 2026</time></div><div class="post-author">By <a href="/staff/jane-doe">Jane Doe</a></div><h1>${title}</h1></div>`;
    const { markdown } = markdownOf(
      newsPage(`<article class="story">${head}<div class="txt">${paragraphs}</div></article>`),
    );
    expect(lines(markdown).slice(0, 2)).toEqual([
      `# ${title}`,
      '9 March 2026 · By [Jane Doe](https://courier.example/staff/jane-doe)',
    ]);
  });

  it('a page without a byline is left as it is: the byline is the only difference', () => {
    const withByline = `<article class="story"><h1>${title}</h1><div class="meta"><div class="author">By <a href="/staff/jane-doe">Jane Doe</a></div><div class="date">9 March 2026</div></div><div class="txt">${paragraphs}</div></article>`;
    const without = withByline.replace(/<div class="meta">.*?<\/div><\/div>/, '');
    const a = markdownOf(newsPage(withByline)).markdown;
    const b = markdownOf(newsPage(without)).markdown;
    expect(a).toBe(
      b.replace(`# ${title}\n`, `# ${title}\n\nBy [Jane Doe](https://courier.example/staff/jane-doe) · 9 March 2026\n`),
    );
  });

  it('a byline-shaped block inside the body keeps its lines; only the head is compacted', () => {
    const letter = `<blockquote class="letter"><div class="letter-author">By <a href="/letters/ali">Ali Khan</a></div><div class="letter-date"><time datetime="2026-03-02">2 March 2026</time></div><p>I have lived on Harbour Road for thirty years. Please keep one lane of parking for the shops and the older residents who drive to them.</p></blockquote>`;
    const body = paragraphs.replace('</p>\n<p>Work', `</p>\n${letter}\n<p>Work`);
    const post = `<article class="story"><h1>${title}</h1><div class="meta"><div class="author">By <a href="/staff/jane-doe">Jane Doe</a></div><div class="date">9 March 2026</div></div><div class="txt">${body}</div></article>`;
    const { markdown } = markdownOf(newsPage(post));
    expect(lines(markdown)[1]).toBe('By [Jane Doe](https://courier.example/staff/jane-doe) · 9 March 2026');
    expect(markdown).toContain('> By [Ali Khan](https://courier.example/letters/ali)\n>\n> 2 March 2026');
  });
});
