/**
 * The media of a page through `scrape()` (HTTP engine): the `html` format's `srcset`, `<source srcset>`,
 * `<video poster>` and the `src` of frames and players absolute as `img[src]` and `a[href]` are (against the page's
 * `<base href>`, which markdown's embed lines follow too), `rawHtml` as served.
 */
import type { ServerResponse } from 'node:http';

import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { startRouteSite } from './helpers/route-site.ts';
import { data } from './helpers/scrape.ts';

const TEXT = '<p>The harbour at dawn, before the boats go out, and the nets drying on the wall by the steps.</p>';

function sendHtml(res: ServerResponse, head: string, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><title>Harbour</title>${head}</head><body><main>${body}</main></body></html>`);
}

const PICTURE =
  '<picture><source type="image/webp" srcset="dawn-800.webp 800w, dawn-1600.webp 1600w">' +
  '<img src="dawn.jpg" srcset="dawn-1x.jpg 1x,  dawn-2x.jpg 2x" alt="Dawn"></picture>' +
  '<video poster="clip.jpg" controls><source src="clip.mp4" type="video/mp4"></video>' +
  '<iframe src="films/7" title="Dawn film"></iframe><audio src="tide.mp3" controls></audio>';

const GIF = 'data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==';

/** Three placeholders with a noscript copy (beside, in a wrapper, no src at all) and two noscripts that stay out. */
const NOSCRIPTS =
  `<p>The boats.</p><img src="${GIF}" alt="Boats at the quay"><noscript><img src="/photos/boats.jpg"></noscript>` +
  `<p>The nets.</p><div class="frame"><span><img class="js-img" alt="Nets"></span>` +
  `<noscript><img src="/photos/nets.jpg" alt="Nets on the wall"></noscript></div>` +
  `<p>The steps.</p><img src="/photos/steps-small.jpg" alt="Steps"><noscript><img src="/photos/steps.jpg"></noscript>` +
  `<p>The wall.</p><noscript><img src="/pixel.gif"> Turn on scripts to see the wall.</noscript>`;

/**
 * Placeholder files in `src` of images a lazy loader manages (lazysizes' class, WP Rocket's `data-lazy-src`), one
 * whose srcset has a larger candidate, and an image no loader marks (its `src` stays the image).
 */
const PLACEHOLDERS =
  '<img class="wp-image lazyload" src="/img/grey.gif" data-src="/photos/pier.jpg" alt="Pier">' +
  '<img src="/img/placeholder.png" data-lazy-src="/photos/gulls.jpg" alt="Gulls">' +
  '<img class="lazy" src="/img/blank.gif" data-src="/photos/tide.jpg" srcset="/photos/tide-2x.jpg 2x" alt="Tide">' +
  '<img src="/photos/rope.jpg" data-src="/photos/rope-small.jpg" alt="Rope">';

/**
 * Progressive loaders' previews: Medium's blurred `max/60` under its noscript copy, its older `progressiveMedia`
 * thumbnail under a `data-src` image; beside them what stays: a rating's identical stars, a before/after pair of one
 * file name in two folders, a gallery's linked thumbnails of one file at two sizes.
 */
const PREVIEWS =
  '<div class="frame"><div><img alt="" src="https://miro.example/max/60/1*boat.jpeg?q=20" width="700"></div>' +
  '<img alt="" width="700"><noscript><img alt="" src="https://miro.example/max/1400/1*boat.jpeg" ' +
  'srcset="https://miro.example/max/552/1*boat.jpeg 276w, https://miro.example/max/1400/1*boat.jpeg 700w">' +
  '</noscript></div>' +
  '<p>The nets.</p><div class="progressiveMedia"><img src="https://cdn.example/freeze/max/60/1*net.jpeg?q=20" ' +
  'alt="Nets"><canvas></canvas><img class="progressiveMedia-image" data-src="https://cdn.example/max/800/1*net.jpeg">' +
  '<noscript><img src="https://cdn.example/max/800/1*net.jpeg"></noscript></div>' +
  '<p>The rating.</p><span class="stars"><img src="/icons/star.svg" alt="star"><img src="/icons/star.svg" alt="star">' +
  '<img src="/icons/star.svg" alt="star"></span>' +
  '<p>The slipway.</p><div class="compare"><img src="/before/slip.jpg" alt="Before"><img src="/after/slip.jpg" ' +
  'alt="After"></div>' +
  '<p>The gallery.</p><div class="gallery"><a href="/g/1"><img src="/w/200/gull.jpg" alt="Gull"></a>' +
  '<a href="/g/2"><img src="/w/400/gull.jpg" alt="Gull again"></a></div>';

/**
 * `<picture>`s whose `<img>` has no source (Medium since 2022): a webp and a plain `<source>`, an art-directed
 * narrow crop; and one whose sources a script has not filled yet (`#, # 2x`), which shows nothing.
 */
const PICTURES =
  '<picture><source media="(max-width: 500px)" srcset="/crop/boat-400.jpg 400w">' +
  '<source type="image/webp" srcset="/v2/fit:640/boat.webp 640w, /v2/fit:1400/boat.webp 1400w">' +
  '<source srcset="/v2/fit:640/boat.jpeg 640w, /v2/fit:1400/boat.jpeg 1400w">' +
  '<img alt="Boats in the harbour" width="700" height="467" loading="lazy"></picture>' +
  '<p>The card.</p><picture><source srcset="#, # 2x"><img alt="A card, front"></picture>';

const SVG =
  'data:image/svg+xml;base64,PHN2ZyB2aWV3Qm94PSIwIDAgMTgyIDQwIiB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';

/**
 * `data:` stand-ins in `srcset` with the real candidates in a lazy attribute: NitroPack's `<picture>` (an empty SVG
 * in every `srcset` and `src`, the URLs in `nitro-lazy-srcset` and `nitro-lazy-src`), a lazysizes `<img>` whose
 * `srcset` is a 1×1 GIF beside its `data-srcset`; and a theme's 1×1 `<source>` with no lazy attribute, which is the
 * image itself (it hides the logo on wide screens) and stays listed as the reference lists `data:` URLs.
 */
const STAND_INS =
  `<picture><source type="image/webp" nitro-lazy-srcset="/nitro/quay-800.webp 800w, /nitro/quay-1600.webp 1600w" ` +
  `srcset="${SVG}"><img alt="The quay" nitro-lazy-src="/nitro/quay.jpg" class="nitro-lazy" src="${SVG}"></picture>` +
  `<p>The crane.</p><img class="lazyload" src="/photos/crane.jpg" data-srcset="/photos/crane-1200.jpg 1200w" ` +
  `srcset="${GIF}" alt="The crane">` +
  `<p>The logo.</p><picture><source srcset="${GIF}" media="(min-width: 980px)"><img src="/logo.png" alt="Logo">` +
  '</picture>';

const env = useFixtureEngine({
  server: () =>
    startRouteSite({
      '/harbour/dawn': (_req, res) => sendHtml(res, '<base href="/media/">', `<h1>Dawn</h1>${TEXT}${PICTURE}`),
      '/harbour/day': (_req, res) => sendHtml(res, '', `<h1>Day</h1>${TEXT}${NOSCRIPTS}`),
      '/harbour/night': (_req, res) => sendHtml(res, '', `<h1>Night</h1>${TEXT}${PLACEHOLDERS}`),
      '/harbour/dusk': (_req, res) => sendHtml(res, '', `<h1>Dusk</h1>${TEXT}${PREVIEWS}`),
      '/harbour/noon': (_req, res) => sendHtml(res, '', `<h1>Noon</h1>${TEXT}${PICTURES}`),
      '/harbour/evening': (_req, res) => sendHtml(res, '', `<h1>Evening</h1>${TEXT}${STAND_INS}`),
    }),
});

describe('media URLs in the html format', () => {
  it('resolves every srcset candidate and the poster against <base>, descriptors kept; rawHtml as served', async () => {
    const url = `${env.server.url}/harbour/dawn`;
    const doc = data(await env.ck.scrape({ url, formats: ['html', 'rawHtml'], maxAge: 0 }));
    const media = `${env.server.url}/media`;
    expect(doc.html).toContain(`srcset="${media}/dawn-800.webp 800w, ${media}/dawn-1600.webp 1600w"`);
    expect(doc.html).toContain(`srcset="${media}/dawn-1x.jpg 1x,  ${media}/dawn-2x.jpg 2x"`);
    expect(doc.html).toContain(`poster="${media}/clip.jpg"`);
    expect(doc.rawHtml).toContain(PICTURE);
    // the players and the frame are kept in the whole page's html
    const whole = data(await env.ck.scrape({ url, formats: ['html'], onlyMainContent: false, maxAge: 0 }));
    for (const file of ['clip.mp4', 'films/7', 'tide.mp3']) expect(whole.html).toContain(`src="${media}/${file}"`);
  });

  it("resolves markdown's embed lines against <base>, as the html format's src", async () => {
    const url = `${env.server.url}/harbour/dawn`;
    const markdownOptions = { embeds: true };
    const doc = data(await env.ck.scrape({ url, formats: ['markdown'], markdownOptions, maxAge: 0 }));
    const media = `${env.server.url}/media`;
    expect(doc.markdown).toContain(`[Dawn film](${media}/films/7)`);
    expect(doc.markdown).toContain(`[clip.mp4](${media}/clip.mp4)`);
    expect(doc.markdown).toContain(`[tide.mp3](${media}/tide.mp3)`);
  });
});

describe('noscript image fallbacks', () => {
  it('stand in for a placeholder <img> beside them in markdown and images; other noscripts stay dropped', async () => {
    const url = `${env.server.url}/harbour/day`;
    const doc = data(await env.ck.scrape({ url, formats: ['markdown', 'images'], maxAge: 0 }));
    const photo = (name: string) => `${env.server.url}/photos/${name}`;
    expect(doc.markdown).toContain(`![Boats at the quay](${photo('boats.jpg')})`);
    expect(doc.markdown).toContain(`![Nets on the wall](${photo('nets.jpg')})`);
    expect(doc.markdown).toContain(`![Steps](${photo('steps-small.jpg')})`);
    expect(doc.images).toEqual(
      expect.arrayContaining([photo('boats.jpg'), photo('nets.jpg'), photo('steps-small.jpg')]),
    );
    expect(doc.images).not.toContain(GIF);
    expect(doc.images).not.toContain(photo('steps.jpg'));
    expect(doc.markdown).not.toContain(`(${photo('steps.jpg')})`);
    expect(doc.images!.concat(doc.markdown!).join('\n')).not.toContain('pixel.gif');
    expect(doc.markdown).not.toContain('Turn on scripts');
  });
});

describe('a placeholder file in src', () => {
  it('gives way to the lazy attribute when a lazy loader marks the image; an unmarked src stays', async () => {
    const url = `${env.server.url}/harbour/night`;
    const doc = data(await env.ck.scrape({ url, formats: ['markdown', 'images'], maxAge: 0 }));
    const photo = (name: string) => `${env.server.url}/photos/${name}`;
    expect(doc.markdown).toContain(`![Pier](${photo('pier.jpg')})`);
    expect(doc.markdown).toContain(`![Gulls](${photo('gulls.jpg')})`);
    // the srcset's larger candidate still wins over the lazy source
    expect(doc.markdown).toContain(`![Tide](${photo('tide-2x.jpg')})`);
    expect(doc.markdown).toContain(`![Rope](${photo('rope.jpg')})`);
    expect(doc.images).toEqual(expect.arrayContaining([photo('pier.jpg'), photo('gulls.jpg'), photo('rope.jpg')]));
    expect(doc.markdown).not.toMatch(/grey\.gif|placeholder\.png|blank\.gif/);
    expect(doc.images!.join('\n')).not.toMatch(/grey\.gif|placeholder\.png/);
  });
});

describe('blurred previews', () => {
  it('give way to the image of the same file they stand under; repeats, pairs and gallery items stay', async () => {
    const url = `${env.server.url}/harbour/dusk`;
    const doc = data(await env.ck.scrape({ url, formats: ['markdown', 'images'], maxAge: 0 }));
    expect(doc.markdown).toContain('![](https://miro.example/max/1400/1*boat.jpeg)');
    // the preview's alt goes to the image, which has none
    expect(doc.markdown).toContain('![Nets](https://cdn.example/max/800/1*net.jpeg)');
    expect(doc.markdown).not.toMatch(/max\/60/);
    expect(doc.images!.join('\n')).not.toMatch(/max\/60/);
    expect(doc.markdown!.match(/!\[star\]/g)).toHaveLength(3);
    const site = env.server.url;
    expect(doc.markdown).toContain(`![Before](${site}/before/slip.jpg)![After](${site}/after/slip.jpg)`);
    expect(doc.images).toEqual(expect.arrayContaining([`${site}/w/200/gull.jpg`, `${site}/w/400/gull.jpg`]));
  });
});

describe('a <picture> whose <img> has no source', () => {
  it("shows the largest candidate of the <source> a browser shows; an unfilled source's # shows nothing", async () => {
    const url = `${env.server.url}/harbour/noon`;
    const doc = data(await env.ck.scrape({ url, formats: ['markdown', 'images'], maxAge: 0 }));
    expect(doc.markdown).toContain(`![Boats in the harbour](${env.server.url}/v2/fit:1400/boat.jpeg)`);
    expect(doc.markdown).not.toContain('crop/boat-400.jpg');
    expect(doc.markdown).not.toContain('A card, front](');
    expect(doc.images).toEqual(expect.arrayContaining([`${env.server.url}/v2/fit:1400/boat.webp`]));
  });
});

describe('a data: stand-in in srcset', () => {
  it('gives way to the lazy attribute, in <source> as in <img>; a data: source with none stays', async () => {
    const url = `${env.server.url}/harbour/evening`;
    const doc = data(await env.ck.scrape({ url, formats: ['markdown', 'images', 'html'], maxAge: 0 }));
    const site = env.server.url;
    expect(doc.images).toEqual(
      expect.arrayContaining([
        `${site}/nitro/quay-800.webp`,
        `${site}/nitro/quay-1600.webp`,
        `${site}/nitro/quay.jpg`,
        `${site}/photos/crane-1200.jpg`,
        GIF,
      ]),
    );
    expect(doc.images).not.toContain(SVG);
    expect(doc.markdown).toContain(`![The quay](${site}/nitro/quay.jpg)`);
    expect(doc.markdown).toContain(`![The crane](${site}/photos/crane-1200.jpg)`);
    // the html shows what a browser shows once the loader has run: the real candidates, not the empty SVG
    expect(doc.html).toContain(`srcset="${site}/nitro/quay-800.webp 800w, ${site}/nitro/quay-1600.webp 1600w"`);
    expect(doc.html).not.toContain(SVG);
  });
});
