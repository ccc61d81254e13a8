import { describe, expect, it } from 'vitest';

import { htmlToMarkdown } from './index.js';

// Tab sets as documentation generators write them (from memory of their templates): each label in bold above its
// panel, every panel kept (docs/qa-converter-second-pass.md).
const md = (html: string): string => htmlToMarkdown(html, { baseUrl: 'https://docs.acme.test/guide/page' });

describe('tabs: each label above its panel', () => {
  it('Docusaurus: `role="tab"` items, panels by order', () => {
    const html =
      '<div class="tabs-container tabList__CuJ"><ul role="tablist" aria-orientation="horizontal" class="tabs">' +
      '<li role="tab" tabindex="0" aria-selected="true" class="tabs__item tabs__item--active">npm</li>' +
      '<li role="tab" tabindex="-1" aria-selected="false" class="tabs__item">Yarn</li></ul>' +
      '<div class="margin-top--md"><div role="tabpanel" class="tabItem_Ymn6"><pre class="prism-code language-bash">' +
      '<code>npm install widget</code></pre></div><div role="tabpanel" class="tabItem_Ymn6" hidden="">' +
      '<pre class="prism-code language-bash"><code>yarn add widget</code></pre></div></div></div><p>Then.</p>';
    expect(md(html)).toBe(
      '**npm**\n\n```bash\nnpm install widget\n```\n\n**Yarn**\n\n```bash\nyarn add widget\n```\n\nThen.',
    );
  });

  it('ARIA tabs paired by `aria-controls` and `aria-labelledby`, whatever the order', () => {
    const html =
      '<div><div role="tablist"><button role="tab" id="t-a" aria-controls="p-a">Alpha</button>' +
      '<button role="tab" id="t-b" aria-controls="p-b">Beta</button></div>' +
      '<div role="tabpanel" id="p-b"><p>Second.</p></div><div role="tabpanel" aria-labelledby="t-a"><p>First.</p></div></div>';
    expect(md(html)).toBe('**Beta**\n\nSecond.\n\n**Alpha**\n\nFirst.');
  });

  it('MkDocs Material content tabs: `<label for>` radio buttons and `tabbed-block`s', () => {
    const html =
      '<div class="tabbed-set tabbed-alternate" data-tabs="1:2"><input checked="checked" id="__tabbed_1_1" ' +
      'name="__tabbed_1" type="radio" /><input id="__tabbed_1_2" name="__tabbed_1" type="radio" />' +
      '<div class="tabbed-labels"><label for="__tabbed_1_1">YAML</label><label for="__tabbed_1_2">Python</label></div>' +
      '<div class="tabbed-content"><div class="tabbed-block"><div class="language-yaml highlight"><pre><span></span>' +
      '<code>key: 1\n</code></pre></div></div><div class="tabbed-block"><div class="language-python highlight"><pre>' +
      '<span></span><code>key = 1\n</code></pre></div></div></div></div>';
    expect(md(html)).toBe('**YAML**\n\n```yaml\nkey: 1\n```\n\n**Python**\n\n```python\nkey = 1\n```');
  });

  it('VitePress code groups: labels above each code block', () => {
    const html =
      '<div class="vp-code-group vp-adaptive-theme"><div class="tabs"><input type="radio" name="group-x" id="tab-1" ' +
      'checked><label data-title="npm" for="tab-1">npm</label><input type="radio" name="group-x" id="tab-2">' +
      '<label data-title="pnpm" for="tab-2">pnpm</label></div><div class="blocks">' +
      '<div class="language-sh vp-adaptive-theme active"><button title="Copy Code" class="copy"></button>' +
      '<span class="lang">sh</span><pre class="shiki"><code><span class="line"><span>npm add -D vitepress</span></span>' +
      '</code></pre></div><div class="language-sh vp-adaptive-theme"><button title="Copy Code" class="copy"></button>' +
      '<span class="lang">sh</span><pre class="shiki"><code><span class="line"><span>pnpm add -D vitepress</span></span>' +
      '</code></pre></div></div></div>';
    expect(md(html)).toBe(
      '**npm**\n\n```sh\nnpm add -D vitepress\n```\n\n**pnpm**\n\n```sh\npnpm add -D vitepress\n```',
    );
  });

  it('leaves alone tabs that lead to other pages, a form label, and code blocks after a tab set has ended', () => {
    expect(md('<nav role="tablist"><a role="tab" href="/a">A page</a></nav>')).toBe(
      '[A page](https://docs.acme.test/a)',
    );
    expect(md('<label for="q">Search</label><input id="q" type="text">')).toBe('Search');
    // tabs that name no panel and that no panel can name (their panels drawn by script): left as they are
    expect(
      md('<ul role="tablist"><li><div role="tab">Safety</div></li><li><div role="tab">Comfort</div></li></ul>'),
    ).toBe('- Safety\n- Comfort');
    const after =
      '<div><div role="tablist"><span role="tab" id="o1">One</span><span role="tab" id="o2">Two</span></div>' +
      '<div role="tabpanel"><p>1</p></div></div><div class="language-js"><pre><code>x</code></pre></div>';
    expect(md(after)).toBe('**One**\n\n1\n\n```js\nx\n```');
  });

  it('finds the panels of a tab list whose tabs sit deep inside it (Twilio Paste)', () => {
    const html =
      '<div><div role="tablist"><div><div><span role="tab" id="x-Python">Python</span>' +
      '<span role="tab" id="x-Go">Go</span></div></div></div>' +
      '<div role="tabpanel" aria-labelledby="x-Python"><p>py</p></div>' +
      '<div role="tabpanel" aria-labelledby="x-Go" hidden><p>go</p></div></div>';
    expect(md(html)).toBe('**Python**\n\npy\n\n**Go**\n\ngo');
  });

  it('pairs nested tab sets each with its own labels', () => {
    const html =
      '<div><div role="tablist"><span role="tab" id="a">Outer A</span><span role="tab" id="b">Outer B</span></div>' +
      '<div role="tabpanel"><div><div role="tablist"><span role="tab" id="i">Inner</span></div>' +
      '<div role="tabpanel"><p>i</p></div></div></div><div role="tabpanel"><p>b</p></div></div>';
    expect(md(html)).toBe('**Outer A**\n\n**Inner**\n\ni\n\n**Outer B**\n\nb');
  });
});

describe('tabs: older MkDocs Material markup', () => {
  it('pairs a label with the `tabbed-content` right after it', () => {
    const html =
      '<div class="tabbed-set" data-tabs="1:2"><input checked id="__tabbed_1_1" name="__tabbed_1" type="radio">' +
      '<label for="__tabbed_1_1">C</label><div class="tabbed-content"><p>c code</p></div>' +
      '<input id="__tabbed_1_2" name="__tabbed_1" type="radio"><label for="__tabbed_1_2">C++</label>' +
      '<div class="tabbed-content"><p>c++ code</p></div></div>';
    expect(md(html)).toBe('**C**\n\nc code\n\n**C++**\n\nc++ code');
  });
});

describe('tabs: `role="tab"` around more than a label', () => {
  it("keeps an accordion item's header and panel, and a slide, as they are", () => {
    const accordion =
      '<div role="tablist" aria-multiselectable="true"><div class="accordion-item" role="tab" id="h-1">' +
      '<h2 class="panel-title"><button aria-controls="c-1">Eligibility</button></h2>' +
      '<div id="c-1" class="panel-collapse collapse" role="tabpanel" aria-labelledby="h-1"><ul><li>Must be certified.</li>' +
      '</ul></div></div></div>';
    expect(md(accordion)).toBe('## Eligibility\n\n- Must be certified.');
    const slides =
      '<ul><li class="swiper-slide" role="tab"><h3>Survey</h3><p>Read the report</p></li>' +
      '<li class="swiper-slide" role="tab"><h3>Story</h3><p>Read the story</p></li></ul>';
    const thumbnails =
      '<ul role="tablist"><li role="tab" id="s1"><img src="/a.jpg" alt=""></li><li role="tab" id="s2"><img src="/b.jpg" alt="">' +
      '</li></ul>';
    expect(md(thumbnails)).toBe('- ![](https://docs.acme.test/a.jpg)\n- ![](https://docs.acme.test/b.jpg)');
    expect(md(slides)).toBe('- ### Survey\n\n  Read the report\n\n- ### Story\n\n  Read the story');
  });
});
