/** extractMainContent on documentation pages whose code blocks sit in highlighter wrappers named after the language. */
import { describe, expect, it } from 'vitest';

import { extract, page, prose } from './__fixtures__/synthetic-page.js';

describe('extractMainContent: highlighted code blocks', () => {
  it('keeps code blocks wrapped in language-* classes and drops the language picker', () => {
    const block = (lang: string, code: string): string =>
      `<div class="language-${lang} highlighter-rouge"><div class="highlight"><pre class="highlight"><code>${code}</code></pre></div></div>`;
    const picker = `<div class="language-selector"><span>Language</span><ul><li><a href="/en/">English</a></li><li><a href="/de/">Deutsch</a></li><li><a href="/fr/">Français</a></li></ul></div>`;
    const { text } = extract(
      page(
        `<main class="docs-main"><div class="doc">${picker}<h1>Fields</h1>${prose('fields', 2)}${block('python', 'from pydantic import BaseModel, Field\n\nclass Model(BaseModel):\n    name: str = Field(default="Jane")')}<h2>Default values</h2>${prose('defaults', 2)}${block('bash', 'pip install pydantic')}<h2>Field aliases</h2>${prose('aliases', 1)}${block('python', 'class User(BaseModel):\n    name: str = Field(alias="username")')}</div></main>`,
      ),
    );
    expect(text).toContain('class Model(BaseModel)');
    expect(text).toContain('pip install pydantic');
    expect(text).toContain('Field(alias="username")');
    expect(text).toContain('aliases paragraph 1');
    expect(text).not.toContain('Deutsch');
  });

  it("keeps every character of highlighted code: a highlighter's tokens are never chrome or furniture", () => {
    // Prism marks JSX attribute values `language-javascript`, a word that also names language pickers; a token
    // reading "print" or "Save" is the code's, not a button
    const jsx =
      '<pre class="language-jsx"><code class="language-jsx"><span class="token keyword">return</span> <span class="token tag"><span class="token punctuation">&lt;</span>button</span> <span class="token attr-name">onClick</span><span class="token script language-javascript"><span class="token punctuation">=</span><span class="token punctuation">{</span><span class="token punctuation">(</span><span class="token punctuation">)</span> <span class="token operator">=&gt;</span> <span class="token function">alert</span><span class="token punctuation">(</span><span class="token template-string"><span class="token string">`Hi ${name}`</span></span><span class="token punctuation">)</span><span class="token punctuation">}</span></span><span class="token punctuation">&gt;</span>Save<span class="token punctuation">&lt;/</span>button<span class="token punctuation">&gt;</span></code></pre>';
    const python =
      '<pre><code class="language-python"><span class="k">def</span> <span class="nf">greet</span>(name):\n    <span class="nb">print</span>(name)</code></pre>';
    // a highlighter that renders each line as a block repeats the lines the code repeats
    const line = (text: string): string => `<div class="line">${text}</div>`;
    const lines = `<pre><code>${line('if (user.isAdmin) { audit.record(user.id); }')}${line('doWork();')}${line('if (user.isAdmin) { audit.record(user.id); }')}</code></pre>`;
    const { text } = extract(
      page(
        `<article><h1>Handlers</h1>${prose('handlers', 2)}${jsx}${prose('python', 1)}${python}${prose('lines', 1)}${lines}</article>`,
      ),
    );
    expect(text).toContain('onClick={() => alert(`Hi ${name}`)}>Save</button>');
    expect(text).toContain('print(name)');
    expect(text.split('if (user.isAdmin) { audit.record(user.id); }')).toHaveLength(3);
  });
});
