/** Main content keeps the structure of docs pages that the markdown writes: callouts, tab labels, footnotes. */
import { describe, expect, it } from 'vitest';

import { extractPage } from '../page.js';
import { page, prose } from './__fixtures__/synthetic-page.js';

const markdown = (main: string, onlyMainContent = true): string =>
  extractPage(page(main), { url: 'https://docs.acme.test/guide', formats: { markdown: true }, onlyMainContent })
    .markdown ?? '';

describe('main content of docs pages: callouts and tabs', () => {
  it('writes an admonition as a GitHub alert and labels each tab panel, main content and whole page', () => {
    const html =
      `<article><h1>Install</h1>${prose('install', 2)}` +
      '<div class="admonition warning"><p class="admonition-title">Warning</p><p>Back up the database first.</p></div>' +
      '<div class="tabs-container"><ul role="tablist" class="tabs"><li role="tab" class="tabs__item">npm</li>' +
      '<li role="tab" class="tabs__item">Yarn</li></ul><div class="margin-top--md">' +
      '<div role="tabpanel"><pre><code class="language-bash">npm install widget</code></pre></div>' +
      '<div role="tabpanel" hidden><pre><code class="language-bash">yarn add widget</code></pre></div></div></div>' +
      `${prose('after', 1)}</article>`;
    for (const main of [true, false]) {
      const md = markdown(html, main);
      expect(md).toContain('> [!WARNING]\n> Back up the database first.');
      expect(md).toContain('**npm**\n\n```bash\nnpm install widget\n```\n\n**Yarn**\n\n```bash\nyarn add widget\n```');
    }
  });
});
