// Subscribe boxes after a paywall stub (`subscribe-boxes.ts`): a short box of calls to sign in or subscribe goes after
// a story, whatever its wording; a call inside the story's last sentence, a box the story goes on after and a page
// whose address names no story keep theirs.
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extractMainContent } from './index.js';

const URL = 'https://quarry.example/business/2026/12/mill-owner-sells-river-site';

const stub = `<h1>Mill owner sells river site</h1><p>The owner of the old paper mill on the river has sold the site to a housing developer for an undisclosed sum, ending two years of talks with the town over its future.</p>`;

const box = `<div class="u-4"><div class="u-5">Reader pass required</div><div>Choose a plan to finish this story, or sign in if you already have one.</div><div><a href="/plans?src=story">See the plans</a> | <a href="/sign-in">Sign in</a></div></div>`;

const page = (article: string): string =>
  `<!doctype html><html><head><title>T</title></head><body><div class="k-1"><a href="/">Quarry</a></div><article class="k-2">${article}</article></body></html>`;

function text(html: string, url: string | null = URL): string {
  return textContent(extractMainContent(parseDocument(html), url ? { url } : {})).replace(/\s+/g, ' ');
}

describe('extractMainContent: subscribe boxes after a story', () => {
  it('drops a box of calls to subscribe or sign in after a stub, whatever it says', () => {
    const out = text(page(`${stub}${box}`));
    expect(out).toContain('ending two years of talks');
    expect(out).not.toContain('Reader pass required');
    expect(out).not.toContain('finish this story');
  });

  it('keeps it on a page whose address names no story, or without a URL', () => {
    expect(text(page(`${stub}${box}`), 'https://quarry.example/business')).toContain('finish this story');
    expect(text(page(`${stub}${box}`), null)).toContain('finish this story');
  });

  it("keeps a call inside the story's sentence, and a box the story goes on after", () => {
    const inline = `<p>Readers can follow the planning application with <a href="/plans">a free account</a> on our site.</p>`;
    expect(text(page(`${stub}${inline}`))).toContain('with a free account on our site');
    const after = `<p>The developer has said it will keep the mill's brick chimney and turn the old boiler house into a café, and it expects to submit plans for about 120 homes to the council in the spring.</p>`;
    expect(text(page(`${stub}${box}${after}`))).toContain('finish this story');
  });

  it('names its rule in explainPage', () => {
    const block = explainPage(page(`${stub}${box}`), { url: URL }).blocks.find((b) =>
      b.text.includes('finish this story'),
    );
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'subscribe-box', module: 'subscribe-boxes.ts' });
  });
});
