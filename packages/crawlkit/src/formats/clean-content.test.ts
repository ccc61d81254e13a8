import { extractPage } from '@crawlkit/extractor';
import { describe, expect, it } from 'vitest';

import { CLEAN_CONTENT_SELECTORS } from './clean-content.js';

const PAGE = `<!doctype html><html><head><title>Shop</title></head><body>
  <header><a href="/">Acme Shop</a><p>Free shipping over $50</p></header>
  <nav><a href="/a">Tools</a> <a href="/b">Wood</a></nav>
  <ol class="breadcrumbs"><li>Home</li><li>Planes</li></ol>
  <div id="onetrust-banner-sdk">We use cookies. <button>Accept</button></div>
  <div class="cookie-consent-banner">Cookie settings</div>
  <aside><h2>Related</h2><p>Chisels you may like.</p></aside>
  <main><h1>Block plane</h1><p>A small plane for end grain.</p>
    <div class="cookie-recipe"><p>Our shop cookies recipe, for the break.</p></div>
    <ins class="adsbygoogle" data-ad-slot="1">Ad</ins>
    <div id="div-gpt-ad-123">Buy now</div>
  </main>
  <footer><p>© Acme 2026</p></footer>
</body></html>`;

const markdownOf = (options: { onlyMainContent: boolean; excludeTags?: string[] }) =>
  extractPage(PAGE, { url: 'https://shop.example/', ...options, formats: { markdown: true } }).markdown ?? '';

describe('onlyCleanContent selectors', () => {
  it('remove navigation, ads and cookie banners, and keep the rest of the page', () => {
    const clean = markdownOf({ onlyMainContent: false, excludeTags: [...CLEAN_CONTENT_SELECTORS] });
    for (const gone of ['Tools', 'Planes', 'We use cookies', 'Cookie settings', 'Buy now', 'Ad\n']) {
      expect(clean).not.toContain(gone);
    }
    for (const kept of [
      'Free shipping',
      'Block plane',
      'end grain',
      'cookies recipe',
      'Chisels you may like',
      '© Acme',
    ]) {
      expect(clean).toContain(kept);
    }
  });

  it('keep more than onlyMainContent does', () => {
    const main = markdownOf({ onlyMainContent: true });
    expect(main).not.toContain('Free shipping');
    expect(markdownOf({ onlyMainContent: false, excludeTags: [...CLEAN_CONTENT_SELECTORS] })).toContain(
      'Free shipping',
    );
  });
});
