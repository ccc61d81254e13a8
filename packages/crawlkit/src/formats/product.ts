/**
 * The `product` format (2026): the product a page declares in its structured data (`product-reader.ts`), with no
 * model.
 */
import { declaredFormat } from './declared-format.js';

/** `product`: the product the page declares, or a warning that it declares none. */
export const productFormat = declaredFormat(
  'product',
  async () => (await import('./product-reader.js')).extractProduct,
  'No product was found on this page: it declares none in JSON-LD, microdata or OpenGraph product tags.',
);
