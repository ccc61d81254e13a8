import { z } from 'zod';

import { defineFormat } from './format-module.js';

/** `attributes`: the values of one attribute of the elements each CSS selector matches, in document order. */
export const attributesFormat = defineFormat({
  type: 'attributes',
  schema: z.strictObject({
    type: z.literal('attributes'),
    selectors: z.array(z.strictObject({ selector: z.string().min(1), attribute: z.string().min(1) })).min(1),
  }),
  extraction: (format) => ({ attributes: format.selectors }),
  produce: (format, state) => {
    // Pages that are not HTML (PDF, JSON, text) have no elements: every selector comes back without values.
    state.document.attributes =
      state.extraction.attributes ?? format.selectors.map((s) => ({ ...s, values: [] as string[] }));
  },
});
