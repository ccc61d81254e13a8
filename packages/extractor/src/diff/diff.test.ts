import { describe, expect, it } from 'vitest';

import { comparableText, diffMarkdown, isSameText } from './index.js';

describe('comparableText / isSameText', () => {
  it('ignores whitespace: re-wrapped paragraphs and re-padded tables are the same text', () => {
    const a = '# Title\n\nA paragraph that\nwraps here.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    const b = '# Title\n\n\nA paragraph that wraps here.   \n\n| a   | b   |\n|---|---|\n| 1   | 2   |';
    expect(isSameText(a, b)).toBe(true);
  });

  it('counts reordered paragraphs and changed words as changes (unlike a sorted-characters comparison)', () => {
    expect(isSameText('First.\n\nSecond.', 'Second.\n\nFirst.')).toBe(false);
    expect(isSameText('Price: 12 EUR', 'Price: 21 EUR')).toBe(false);
    expect(isSameText('Hello world', 'Hello world!')).toBe(false);
  });

  it('ignores cache-busting query strings of image URLs but not a different image', () => {
    expect(isSameText('![logo](/img/logo.png?v=1712)', '![logo](/img/logo.png?v=1899)')).toBe(true);
    expect(isSameText('![logo](https://cdn.x/logo.png?w=200#a "Logo")', '![logo](https://cdn.x/logo.png "Logo")')).toBe(
      true,
    );
    expect(isSameText('![logo](/img/logo.png)', '![logo](/img/logo-new.png)')).toBe(false);
    // Query strings of links are content.
    expect(isSameText('[next](/list?page=2)', '[next](/list?page=3)')).toBe(false);
  });

  it('ignores timestamps on lines that label them, and only there', () => {
    expect(
      isSameText('Body.\n\nLast updated: 2026-11-22T18:50:52Z', 'Body.\n\nLast updated: 2026-11-23T09:01:00Z'),
    ).toBe(true);
    expect(isSameText('Page generated Nov 22, 2026 at 6:50 pm', 'Page generated Dec 1, 2026 at 7:02 am')).toBe(true);
    expect(isSameText('Updated 5 minutes ago', 'Updated 2 hours ago')).toBe(true);
    expect(isSameText('*As of Monday 22/11/2026 18:50 UTC*', '*As of Tuesday 23/11/2026 08:10 UTC*')).toBe(true);
    // A date in the content is content.
    expect(isSameText('The meetup is on 2026-12-01.', 'The meetup is on 2026-12-08.')).toBe(false);
    // The rest of a labelled line still counts.
    expect(isSameText('Last updated 2026-11-22 by Ann', 'Last updated 2026-11-23 by Bob')).toBe(false);
  });

  it('ignores relative times of several parts and the time the page took, on labelled lines', () => {
    expect(isSameText('Last updated 2 hours, 5 minutes ago', 'Last updated 3 hours, 12 minutes ago')).toBe(true);
    expect(isSameText('Updated 1 hour and 5 minutes ago', 'Updated 1 hour and 6 minutes ago')).toBe(true);
    expect(isSameText('Page generated in 0.0283 seconds', 'Page generated in 0.0311 seconds')).toBe(true);
    expect(isSameText('Last updated 2 months ago', 'Last updated 3 months ago')).toBe(true);
    expect(
      isSameText(
        'Last updated 1 year, 2 months, 3 weeks, 4 days, 5 hours, 6 minutes and 7 seconds ago',
        'Last updated 2 years, 3 months, 1 week, 2 days, 1 hour, 2 minutes and 9 seconds ago',
      ),
    ).toBe(true);
    expect(isSameText('Rendered in 67 ms.', 'Rendered in 73ms.')).toBe(true);
    // Elsewhere a duration is content.
    expect(isSameText('Delivery in 2 s', 'Delivery in 3 s')).toBe(false);
    // Many parts with no "ago" after them are left as they are, at once.
    const many = `Last updated ${'1 hour, '.repeat(20_000)}then`;
    const started = performance.now();
    expect(comparableText(many)).toContain('1 hour, then');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("drops a forum's relative activity times, and keeps its counters", () => {
    expect(isSameText('Last active 3 minutes ago', 'Last active 2 hours ago')).toBe(true);
    expect(isSameText('Last activity: 5 days ago', 'Last activity: yesterday')).toBe(true);
    expect(isSameText('Last seen 10 min ago', 'Last seen just now')).toBe(true);
    // A views counter is a number of the page, as a price is: left to the user (docs/qa-forum-day.md).
    expect(isSameText('Last active 3 minutes ago · 101 views', 'Last active 6 minutes ago · 104 views')).toBe(false);
  });

  it('drops iframe links', () => {
    expect(comparableText('Text [iframe](https://x/embed?session=1) more')).toBe('Text more');
  });

  it('drops session ids from link URLs, and keeps the rest of the query', () => {
    const link = (sid: string) =>
      `[Topic](https://forum.test/viewtopic.php?f=1&t=7&start=20&sid=${sid}#p12) by [bob](/shop;jsessionid=${sid}?x=1)`;
    expect(isSameText(link('0123456789abcdef0123456789abcdef'), link('fedcba9876543210fedcba9876543210'))).toBe(true);
    expect(comparableText(link('0123456789abcdef0123456789abcdef'))).toBe(
      '[Topic](https://forum.test/viewtopic.php?f=1&t=7&start=20#p12) by [bob](/shop?x=1)',
    );
    // Another page, or a `sid` that is not a session id, is a change.
    expect(isSameText('[a](/viewtopic.php?t=7)', '[a](/viewtopic.php?t=8)')).toBe(false);
    expect(isSameText('[a](/store?sid=12)', '[a](/store?sid=13)')).toBe(false);
  });
});

describe('diffMarkdown', () => {
  it('returns a git-style unified diff and its parsed chunks with line numbers', async () => {
    const previous = '# Shop\n\nHand planes\n\nPrice: 40 EUR\n\nShipping worldwide\n';
    const current = '# Shop\n\nHand planes\n\nPrice: 45 EUR\n\nShipping worldwide\n\nNew: chisels\n';
    const diff = await diffMarkdown(previous, current);
    expect(diff.text.split('\n').slice(0, 4)).toEqual([
      'diff --git a/page.md b/page.md',
      '--- a/page.md',
      '+++ b/page.md',
      '@@ -2,6 +2,8 @@',
    ]);
    expect(diff.text).toContain('\n-Price: 40 EUR\n+Price: 45 EUR\n');
    expect(diff.text).toContain('\n+New: chisels\n');

    const [file] = diff.json.files;
    expect(file).toMatchObject({ from: 'page.md', to: 'page.md', additions: 3, deletions: 1 });
    expect(file!.chunks).toHaveLength(1);
    const chunk = file!.chunks[0]!;
    expect(chunk.content).toBe('@@ -2,6 +2,8 @@');
    expect(chunk.changes).toContainEqual({ type: 'del', del: true, ln: 5, content: '-Price: 40 EUR' });
    expect(chunk.changes).toContainEqual({ type: 'add', add: true, ln: 5, content: '+Price: 45 EUR' });
    expect(chunk.changes).toContainEqual({ type: 'add', add: true, ln: 9, content: '+New: chisels' });
    expect(chunk.changes[0]).toEqual({ type: 'normal', normal: true, ln1: 2, ln2: 2, content: ' ' });
  });

  it('is empty for identical text and ignores a missing final newline', async () => {
    expect(await diffMarkdown('a\nb', 'a\nb\n')).toEqual({ text: '', json: { files: [] } });
  });

  it('splits distant changes into separate chunks and handles empty versions', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const changed = [...lines];
    changed[1] = 'line two';
    changed[27] = 'line twenty-eight';
    const diff = await diffMarkdown(lines.join('\n'), changed.join('\n'));
    expect(diff.json.files[0]!.chunks.map((c) => c.content)).toEqual(['@@ -1,5 +1,5 @@', '@@ -25,6 +25,6 @@']);

    const created = await diffMarkdown('', 'hello\n');
    expect(created.json.files[0]!.chunks[0]!.changes).toEqual([{ type: 'add', add: true, ln: 1, content: '+hello' }]);
  });
});
