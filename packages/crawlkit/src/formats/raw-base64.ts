import { z } from 'zod';

import { defineFormat } from './format-module.js';

/**
 * `rawBase64` (2026): the page's bytes as fetched (or as the cache kept them), base64-encoded; a page the fetch
 * already decoded is its text in UTF-8. Upstream allows it alone only (`v2/scrape-options.ts` keeps the rule).
 */
export const rawBase64Format = defineFormat({
  type: 'rawBase64',
  schema: z.strictObject({ type: z.literal('rawBase64') }),
  produce: (_format, state) => {
    const { body, text } = state.page;
    state.document.rawBase64 = Buffer.from(body ?? text ?? '').toString('base64');
  },
});
