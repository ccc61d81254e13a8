import { describe, expect, it } from 'vitest';

import { extractPage } from '../page.js';
import { warningText } from '../page-warnings.js';

const page =
  '<html><body><div class="WordSection1"><p>The survey covered forty farms along the river.</p>' +
  '<st1:place>Paris</st1:place></div></body></html>';

const run = (includeTags: string[]) => {
  const out = extractPage(page, { url: 'https://a.example/', includeTags, formats: { markdown: true } });
  return { markdown: out.markdown?.trim(), warnings: out.warnings.map(warningText) };
};

describe('an invalid selector in includeTags', () => {
  it('that names a tag with a colon as the page writes it says how to write it', () => {
    const { markdown, warnings } = run(['st1:place']);
    expect(markdown).toBe('');
    expect(warnings[0]).toBe(
      'Ignored an invalid CSS selector in includeTags: "st1:place" (Unknown pseudo-class :place). ' +
        'A tag name with a colon is written with a backslash before it: "st1\\\\:place".',
    );
    expect(run(['st1\\:place']).markdown).toBe('Paris');
  });

  it('of another kind gets no such hint', () => {
    expect(run(['a[href']).warnings[0]).toBe(
      'Ignored an invalid CSS selector in includeTags: "a[href" (Attribute selector didn\'t terminate).',
    );
  });
});
