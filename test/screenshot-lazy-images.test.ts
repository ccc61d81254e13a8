/**
 * A full-page screenshot of a long page whose images load lazily (`loading="lazy"`, which WordPress puts on every
 * image): Chromium fetches such an image only near the viewport, so the capture showed blank boxes below the first
 * screen. The images are now loaded before the capture; a viewport screenshot still takes the page as it is.
 */
import { describe, expect, it } from 'vitest';

import { useImagePage } from './helpers/image-page.ts';
import { data } from './helpers/scrape.ts';

const PHOTOS = 10;
const essay = Array.from(
  { length: PHOTOS },
  (_, i) =>
    `<p>Part ${i} of the walk along the harbour wall, past the nets and the boats.</p>` +
    `<img src="/img/photo-${i}.png" loading="lazy" alt="Photo ${i}" width="600" height="700">`,
).join('');

const { env, images } = useImagePage('/essay', 'Harbour walk', essay);

describe('a full-page screenshot of a page with lazy images', () => {
  it('loads every lazy image before the capture; a viewport capture loads only those near the first screen', async () => {
    const scrape = (fullPage: boolean) =>
      env.ck.scrape({ url: `${env.server.url}/essay`, formats: [{ type: 'screenshot', fullPage }], maxAge: 0 });

    data(await scrape(false));
    // the first screen (768 px) shows two photos; Chromium's lazy margin reaches a few more, never all ten
    expect(images.requested().length).toBeLessThan(PHOTOS);

    images.reset();
    const doc = data(await scrape(true));
    expect(doc.screenshot).toMatch(/^data:image\/png;base64,/);
    // before: the same few as the viewport capture, and blank boxes below them in the picture
    expect(images.requested()).toEqual(Array.from({ length: PHOTOS }, (_, i) => `/img/photo-${i}.png`).sort());
  }, 30_000);
});
