import { describe, expect, it } from 'vitest';

import { parseHtml } from '../dom/parse.js';
import { cssUrls, discoveryLinks } from './transform.js';

/** The regex `cssUrls` replaced: right, but it rescans the rest of the line from every `url(` that never closes. */
const OLD_URL = /url\(\s*(['"]?)(.*?)\1\s*\)/gi;
const oldUrls = (style: string) => [...style.matchAll(OLD_URL)].map((m) => m[2]!);

/** A deterministic generator of style-like strings over the characters that matter. */
function* samples(count: number): Generator<string> {
  const alphabet = ['url(', 'URL(', ')', '"', "'", ' ', '\n', 'a.png', ';', 'background:', '\u2028', 'x'];
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  for (let i = 0; i < count; i++) {
    let s = '';
    const length = next() % 16;
    for (let j = 0; j < length; j++) s += alphabet[next() % alphabet.length];
    yield s;
  }
}

describe('cssUrls', () => {
  it('finds the url() values the regex found, in the same order', () => {
    const fixed = [
      'background: url(a.png)',
      'background-image: url( \'a b.png\' ), url("c.png")',
      'background: url(a.png) no-repeat, URL(  b.png  )',
      'background: url("a.png) x',
      "background: url('a.png\n') url(b.png)",
      'background: url(url(a.png))',
      'background: url() url("") url(\'x\' )',
    ];
    for (const style of [...fixed, ...samples(10_000)])
      expect(cssUrls(style), JSON.stringify(style)).toEqual(oldUrls(style));
  });

  it('reads a style of 20,000 unclosed url( openers, and the url that follows them', () => {
    expect(cssUrls(`background:${'url('.repeat(20_000)}`)).toEqual([]);
    expect(cssUrls(`background:${'url(x'.repeat(20_000)}\nurl(a.png)`)).toEqual(['a.png']);
  });
});

describe('discoveryLinks', () => {
  it('resolves each address once, fragments dropped, in document order, http(s) only', () => {
    const html = `<a href="os.html#os.stat">a</a> <a href="../index.html">b</a> <a href="os.html#os.getcwd">c</a>
      <a href="#top">d</a> <a href="  os.html#">e</a> <a href="mailto:x@y.test#z">f</a> <a href="http:/typo.test/p#q">g</a>
      <a href="javascript:go('#x')">h</a> <area href="sub/?q=1#frag"> <a href="http://[bad#x">i</a>
      <a href="//other.test/x#y">j</a> <a href="os.html?b=#c">k</a>`;
    const base = 'http://127.0.0.1/library/os.path.html';
    expect(discoveryLinks(parseHtml(html), base)).toEqual([
      'http://127.0.0.1/library/os.html',
      'http://127.0.0.1/index.html',
      'http://typo.test/p',
      'http://127.0.0.1/library/sub/?q=1',
      'http://other.test/x',
      'http://127.0.0.1/library/os.html?b=',
    ]);
  });

  it('keeps a client-side route: relative, absolute or hash-bang, another page of the app', () => {
    const html = `<a href="#/guide">a</a> <a href=" /app#!/settings ">b</a> <a href="#intro">c</a>
      <a href="/app#docs/let">d</a> <a href="/app#top">e</a> <a href="javascript:x#/y">f</a>`;
    expect(discoveryLinks(parseHtml(html), 'http://127.0.0.1/app#/home')).toEqual([
      'http://127.0.0.1/app#/guide',
      'http://127.0.0.1/app#!/settings',
      'http://127.0.0.1/app#docs/let',
      'http://127.0.0.1/app',
    ]);
  });
});
