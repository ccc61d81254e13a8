import render from 'dom-serializer';
import { describe, expect, it } from 'vitest';

import { extractPage } from '../page.js';
import { parseHtml } from './parse.js';

const body = (html: string) => {
  const doc = parseHtml(`<html><body>${html}</body></html>`);
  const bodyEl = (doc.children[0] as unknown as { children: { children: unknown }[] }).children[0]!;
  return render(bodyEl.children as never);
};

describe('declarative shadow DOM', () => {
  it("renders a host's shadow tree with its children in the slots, as a browser shows it", () => {
    expect(
      body(
        '<card-x><template shadowrootmode="open"><h2><slot name="title">Untitled</slot></h2>' +
          '<div class="text"><slot></slot></div><footer><slot name="foot">No footer</slot></footer></template>' +
          '<span slot="title">Planing</span><p>Sharpen the iron.</p> <p>Hone the back.</p>' +
          '<em slot="nowhere">never shown</em></card-x>',
      ),
    ).toBe(
      '<card-x><h2><span slot="title">Planing</span></h2><div class="text"><p>Sharpen the iron.</p> ' +
        '<p>Hone the back.</p></div><footer>No footer</footer></card-x>',
    );
  });

  it('renders nested hosts, the legacy shadowroot attribute, and only the first template of a host', () => {
    expect(
      body(
        '<outer-x><template shadowroot="open"><inner-x><template shadowrootmode="closed">[<slot></slot>]</template>' +
          '<b><slot></slot></b></inner-x></template>text</outer-x>' +
          '<two-x><template shadowrootmode="open">first</template><template shadowrootmode="open">second</template></two-x>',
      ),
    ).toBe('<outer-x><inner-x>[<b>text</b>]</inner-x></outer-x><two-x>first</two-x>');
  });

  it('leaves other templates inert, and a page without shadow roots as it was', () => {
    const html = '<template id="row"><tr><td>cell</td></tr></template><slot>plain</slot><p>x</p>';
    expect(body(html)).toBe(html);
  });

  it("puts a server-rendered component's text in the markdown (it was lost)", () => {
    const components = Array.from(
      { length: 4 },
      (_, i) =>
        `<doc-section><template shadowrootmode="open"><section><h2><slot name="heading"></slot></h2><slot></slot>` +
        `</section></template><span slot="heading">Step ${i + 1}</span><p>Step ${i + 1} of the guide: flatten the ` +
        `sole of the plane on a granite plate with sandpaper until the whole face shows an even scratch pattern, ` +
        `then move on to the next grit and repeat the same strokes.</p></doc-section>`,
    ).join('');
    const page =
      '<html><head><title>Plane guide</title></head><body><nav><a href="/">Home</a></nav>' +
      `<main><h1>Plane guide</h1>${components}</main><footer>Site footer</footer></body></html>`;
    const out = extractPage(page, { url: 'https://example.test/guide', formats: { markdown: true } });
    for (let i = 1; i <= 4; i++) {
      expect(out.markdown).toContain(`## Step ${i}`);
      expect(out.markdown).toContain(`Step ${i} of the guide: flatten the sole`);
    }
  });
});
