/**
 * Pages the real-client suites add to the fixture site: a product page that declares itself in JSON-LD (with the
 * navigation and cookie banner `onlyCleanContent` removes), and a site whose second page answers only when the test
 * releases it, so that a crawl stays running for as long as a test needs.
 */
import type { Routes } from '../../fixtures/server.ts';

const PRODUCT = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'No. 4 Smoothing Plane',
  brand: { '@type': 'Brand', name: 'Acme Tools' },
  sku: 'AC-PLANE-4',
  image: '/img/plane-1200.jpg',
  offers: {
    '@type': 'Offer',
    price: '129.00',
    priceCurrency: 'USD',
    availability: 'https://schema.org/InStock',
  },
};

export const PRODUCT_PAGE = `<!doctype html><html lang="en"><head><title>No. 4 Smoothing Plane | Acme Shop</title>
<script type="application/ld+json">${JSON.stringify(PRODUCT)}</script></head><body>
<nav class="site-nav"><a href="/">Home</a> <a href="/listing.html">Catalogue</a></nav>
<div id="cookie-banner">We use cookies. <button>Accept all</button></div>
<header><p>Free shipping on orders over $100</p></header>
<main><h1>No. 4 Smoothing Plane</h1>
<p>Price: $129.00. The No. 4 is the plane most workshops reach for first.</p>
<p>Its iron is bedded at 45 degrees and ships sharpened to 25 degrees with a 30 degree micro-bevel.</p>
<table><tr><th>Length</th><td>245 mm</td></tr><tr><th>Weight</th><td>1.9 kg</td></tr></table>
</main><footer><p>Acme Tools, since 1921</p></footer></body></html>`;

/** A page whose text a test changes between two checks of a monitor. */
export const board = { text: 'The No. 4 plane costs $129 today.' };

export interface HeldPages {
  routes: Routes;
  /** Answers every held request, now and later. */
  releaseAll(): void;
}

export function clientRoutes(held?: HeldPages): Routes {
  return {
    '/shop/plane.html': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PRODUCT_PAGE);
    },
    '/monitor/board.html': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Price board</title></head><body><main><h1>Price board</h1>
<p>${board.text}</p><p>Prices on this board change when the shop changes them, as this sentence says.</p></main></body></html>`);
    },
    ...held?.routes,
  };
}

/** `/slow/` links to `/slow/held-N.html` pages that wait until `releaseAll`. */
export function heldPages(): HeldPages {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    routes: {
      '/slow/': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const links = [1, 2, 3].map((n) => `<a href="/slow/held-${n}.html">Held ${n}</a>`).join(' ');
        res.end(`<!doctype html><html><head><title>Slow</title></head><body><main><h1>Slow site</h1>
<p>The pages of this site answer when the test lets them, which this sentence says.</p>${links}</main></body></html>`);
      },
      '/slow/held-*': (req, res) => {
        void released.then(() => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><html><head><title>${req.url}</title></head><body><main><h1>Held</h1>
<p>This page answered once the test released it, as this sentence says.</p></main></body></html>`);
        });
      },
    },
    releaseAll: () => release(),
  };
}
