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
});
