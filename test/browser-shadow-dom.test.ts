/**
 * Pages built of web components: the text of open shadow roots (script-attached or declarative, nested, with slotted
 * light DOM) is in the markdown and links of a browser scrape, in the order the page shows it.
 */
import { describe, expect, it } from 'vitest';

import { useFixtureEngine } from './helpers/fixture-engine.ts';
import { sendPage, startRouteSite } from './helpers/route-site.ts';
import { expectInOrder } from './helpers/in-order.ts';
import { data, ISOLATED_ARGS } from './helpers/scrape.ts';

const PRODUCT = `
<product-card>
  <span slot="price">€24.99</span>
  <p>Handmade in Porto from recycled cotton.</p>
</product-card>
<div><template shadowrootmode="open"><p>Ships within two working days.</p></template></div>
<div id="closed"></div>
<script>
  customElements.define('star-rating', class extends HTMLElement {
    connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<p>Rated 4.6 out of 5 by 212 buyers.</p>'; }
  });
  customElements.define('product-card', class extends HTMLElement {
    connectedCallback() {
      this.attachShadow({ mode: 'open' }).innerHTML =
        '<h2>Canvas tote bag</h2><p>Price: <slot name="price">ask us</slot></p><slot></slot>' +
        '<p>Colour: <slot name="colour">natural</slot></p><star-rating></star-rating>' +
        '<a href="/reviews">Read the reviews</a>';
    }
  });
  document.getElementById('closed').attachShadow({ mode: 'closed' }).innerHTML = '<p>Closed root text</p>';
</script>`;

const env = useFixtureEngine({
  server: () => startRouteSite({ '/product': (_req, res) => sendPage(res, 'Tote bag', PRODUCT) }),
  crawlkit: { store: 'memory', engine: 'browser', browser: { args: ISOLATED_ARGS }, timeoutMs: 20_000 },
});

describe('shadow DOM in a browser scrape', () => {
  it('puts open shadow roots in the markdown, slots filled with their light DOM, and their links in links', async () => {
    const doc = data(
      await env.ck.scrape({ url: `${env.server.url}/product`, formats: ['markdown', 'links', 'html'], maxAge: 0 }),
    );
    const md = doc.markdown!;
    expectInOrder(md, [
      '## Canvas tote bag',
      'Price: €24.99',
      'Handmade in Porto from recycled cotton.',
      'Colour: natural',
      'Rated 4.6 out of 5 by 212 buyers.',
      '[Read the reviews]',
      'Ships within two working days.',
    ]);
    // Slotted light DOM comes once, where its slot is; fallback content only where nothing is assigned.
    expect(md.split('Handmade in Porto').length).toBe(2);
    expect(md).not.toContain('ask us');
    // A closed root is the page's own: it stays out.
    expect(md).not.toContain('Closed root text');
    expect(doc.links).toContain(`${env.server.url}/reviews`);
    expect(doc.html).not.toContain('<slot');
  }, 30_000);
});
