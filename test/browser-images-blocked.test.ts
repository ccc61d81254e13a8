/**
 * A browser scrape that takes no picture never loads the page's images (a photo-heavy crawl spent its time on them;
 * the `images` format and markdown read the DOM's URLs, not pixels). A screenshot, an action taking one, and the
 * `branding` format (which measures logo sizes) load them, and so does a recording (a replay of it may take one).
 */
import { rm } from 'node:fs/promises';

import { indexWarc } from '@crawlkit/fetcher/warc';
import { describe, expect, it } from 'vitest';

import { useImagePage } from './helpers/image-page.ts';
import { data } from './helpers/scrape.ts';

// Two plain images, one `loading="lazy"` far below, one a script swaps in from `data-src` (a lazy loader).
const album =
  '<p>The harbour in the morning.</p><img src="/img/a.png" alt="Boats" width="400" height="300">' +
  '<img src="/img/b.png" alt="Nets" width="400" height="300"><div style="height:4000px"></div>' +
  '<img src="/img/c.png" alt="Pier" loading="lazy" width="400" height="300">' +
  '<img data-src="/img/d.png" class="lazy" alt="Gulls" width="400" height="300">' +
  '<script>for (const img of document.querySelectorAll("img.lazy")) img.src = img.dataset.src;</script>';
const ALL = ['/img/a.png', '/img/b.png', '/img/c.png', '/img/d.png'];

const { env, images } = useImagePage('/album', 'Harbour album', album);

const scrape = async (options: Record<string, unknown>) => {
  images.reset();
  const doc = data(await env.ck.scrape({ url: `${env.server.url}/album`, maxAge: 0, ...options }));
  return { doc, requested: images.requested() };
};

describe('images in the browser engine', () => {
  it('loads none without a picture, yet lists them all in images and markdown', async () => {
    const { doc, requested } = await scrape({ formats: ['markdown', 'images'] });
    expect(requested).toEqual([]);
    expect(doc.images).toEqual(ALL.map((path) => `${env.server.url}${path}`));
    for (const path of ALL) expect(doc.markdown).toContain(`${env.server.url}${path}`);
  }, 30_000);

  it('loads them for a full-page screenshot, a screenshot action and branding', async () => {
    expect((await scrape({ formats: [{ type: 'screenshot', fullPage: true }] })).requested).toEqual(ALL);
    const action = await scrape({ formats: ['markdown'], actions: [{ type: 'screenshot' }] });
    expect(action.requested).toEqual(expect.arrayContaining(['/img/a.png', '/img/b.png', '/img/d.png']));
    const branding = await scrape({ formats: ['branding'] });
    expect(branding.requested).toEqual(expect.arrayContaining(['/img/a.png', '/img/b.png', '/img/d.png']));
  }, 40_000);

  it('loads them for a recording, which then holds their bodies for a replay with a screenshot', async () => {
    const { doc, requested } = await scrape({ formats: ['markdown'], record: true });
    expect(requested).toEqual(expect.arrayContaining(['/img/a.png', '/img/b.png', '/img/d.png']));
    try {
      const recorded = [...(await indexWarc(doc.metadata.warcFile!)).responses.keys()];
      expect(recorded).toEqual(expect.arrayContaining([`${env.server.url}/img/a.png`, `${env.server.url}/img/b.png`]));
    } finally {
      await rm(doc.metadata.warcFile!, { force: true });
    }
  }, 30_000);
});
