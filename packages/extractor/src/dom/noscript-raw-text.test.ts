import { describe, expect, it } from 'vitest';

import { markdownOf } from '../content/__fixtures__/news-site.js';
import { closeRawTextInNoscript } from './noscript-raw-text.js';

/** A Next.js page as tag managers leave it: the GTM snippet's noscript iframe, never closed, right after `<body>`. */
const page = `<!doctype html><html><head><title>Pricing | Deployhost</title></head><body>
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-XXXX" height="0" width="0" style="display:none;visibility:hidden"></noscript>
<header><nav><a href="/">Deployhost</a> <a href="/docs">Docs</a> <a href="/pricing">Pricing</a> <a href="/login">Log in</a></nav></header>
<main><h1>Deploy web services without managing servers</h1>
<p>Connect a repository and every push builds and deploys your service, with zero-downtime releases, automatic TLS and private networking between services in the same region.</p>
<p>Pay for what you run: services sleep when idle on the free tier, and paid instances are billed by the second, with no charge for builds or bandwidth inside a region.</p>
<p>Teams get preview environments for every pull request, shared environment groups, audit logs and single sign-on, and can roll back any deploy from the dashboard in one click.</p></main>
<footer><p>© 2026 Deployhost, Inc.</p></footer></body></html>`;

describe('closeRawTextInNoscript', () => {
  it("ends an iframe left open in a noscript at the noscript's end, so the page after it is read", () => {
    const { markdown } = markdownOf(page);
    expect(markdown).toContain('Connect a repository and every push builds');
    expect(markdown).toContain('roll back any deploy');
    expect(markdown).not.toContain('googletagmanager');
  });

  it('changes nothing where the iframe is closed, there is no noscript, or the noscript holds prose', () => {
    const closed = '<noscript><iframe src="/x"></iframe></noscript><p>After</p>';
    const forum =
      '<noscript><div class="post"><p>Posted text, with an <a href="/iframe">iframe</a> link.</p></div></noscript>';
    for (const html of [closed, forum, '<p>No noscript at all</p>', '<noscript><iframe src="/x">']) {
      expect(closeRawTextInNoscript(html)).toBe(html);
    }
    expect(closeRawTextInNoscript('<NOSCRIPT><IFRAME src="/x"></NOSCRIPT><p>a</p>')).toBe(
      '<NOSCRIPT><IFRAME src="/x"></iframe></NOSCRIPT><p>a</p>',
    );
    // found past other tags and `<` in script text, in any case, and only as a whole tag name
    const late = '<nav><p>x</p></nav><script>if (a<n) b<noscripts;</script><NoScript><iframe src="/x"></noscript>';
    expect(closeRawTextInNoscript(late)).toBe(late.replace('</noscript>', '</iframe></noscript>'));
  });

  it('closes each noscript on its own, its end found with spaces before the `>` and in any case', () => {
    const html =
      '<noscript><iframe src="/a"></NoScript  ><p>1</p><noscript><iframe src="/b"></iframe></noscript>' +
      '<p>2 </noscript> stray</p><noscript\n><xmp>raw</noscript>';
    expect(closeRawTextInNoscript(html)).toBe(
      '<noscript><iframe src="/a"></iframe></NoScript  ><p>1</p><noscript><iframe src="/b"></iframe></noscript>' +
        '<p>2 </noscript> stray</p><noscript\n><xmp>raw</xmp></noscript>',
    );
  });
});
