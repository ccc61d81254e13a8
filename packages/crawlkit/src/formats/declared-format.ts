/**
 * A format read from what the page declares in its structured data, with no model (`product`, `jobPosting`): its
 * reader runs on the page's raw HTML, and a page that declares nothing of the kind gets the format's warning instead.
 * Its field is then left out of the document, never `null`: v2's document declares every format's field optional
 * (`json?`, `summary?`, `branding?`), and a format that cannot give its field (`json` under zero data retention,
 * `branding` that could not be measured) leaves it out and says why in `warning`.
 */
import { lazyModule } from '@crawlkit/options/lazy-module';
import { z } from 'zod';

import type { Document } from '../v2/types.js';
import { defineFormat } from './format-module.js';

type DeclaredField = 'product' | 'jobPosting';

/** A reader of one kind of declared thing: the page's HTML and URL in, the thing or undefined out. */
type Reader<T extends DeclaredField> = (html: string, pageUrl: string) => Document[T] | undefined;

/**
 * The format filling the document field `type` with what `load`'s reader finds, or warning `none`. The reader (and
 * the HTML parser it needs) is loaded on the main thread by the first request for the format.
 */
export function declaredFormat<T extends DeclaredField>(type: T, load: () => Promise<Reader<T>>, none: string) {
  const reader = lazyModule(load);
  return defineFormat({
    type,
    schema: z.strictObject({ type: z.literal(type) }),
    extraction: () => ({ rawHtml: true }),
    produce: async (_format, state) => {
      const read = await reader();
      const html = state.extraction.rawHtml ?? state.page.text;
      const found =
        html !== undefined && /html|xml|^$/i.test(state.page.contentType) ? read(html, state.page.url) : undefined;
      if (found) (state.document as Pick<Document, T>)[type] = found;
      else if (!state.warnings.includes(none)) state.warnings.push(none);
    },
  });
}
