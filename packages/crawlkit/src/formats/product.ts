/**
 * The `product` format (2026): the product a page declares in its structured data (`product-reader.ts`), with no
 * model.
 */
import { lazyModule } from '@crawlkit/options/lazy-module';
import { z } from 'zod';

import { defineFormat } from './format-module.js';

/** The reader and the HTML parser it needs, loaded on the main thread by the first `product` format. */
const productReader = lazyModule(() => import('./product-reader.js'));

const NO_PRODUCT =
  'No product was found on this page: it declares none in JSON-LD, microdata or OpenGraph product tags.';

/** `product`: the product the page declares, or a warning that it declares none. */
export const productFormat = defineFormat({
  type: 'product',
  schema: z.strictObject({ type: z.literal('product') }),
  extraction: () => ({ rawHtml: true }),
  produce: async (_format, state) => {
    const { extractProduct } = await productReader();
    const html = state.extraction.rawHtml ?? state.page.text;
    const product =
      html !== undefined && /html|xml|^$/i.test(state.page.contentType)
        ? extractProduct(html, state.page.url)
        : undefined;
    if (product) state.document.product = product;
    else if (!state.warnings.includes(NO_PRODUCT)) state.warnings.push(NO_PRODUCT);
  },
});
