// The ablation bench's switch (`switchOffRules` in `trace.ts`, not exported from the package): a rule switched off no
// longer decides, a walk rule's block is entered as it would be without the rule, and switching none restores every rule.
import { afterEach, describe, expect, it } from 'vitest';

import { extract, page, prose } from './__fixtures__/synthetic-page.js';
import { ruleOff, switchOffRules } from './trace.js';

const story = (extra: string): string =>
  page(`<article><h1>How the harbour ferry runs</h1>${prose('story', 4)}${extra}</article>`);

describe('switchOffRules: the rule ablation bench switch', () => {
  afterEach(() => switchOffRules([]));

  it('keeps a caption while the caption rule is off, and drops it again once every rule is back', () => {
    const html = story(
      '<figure><img src="ferry.jpg" alt=""><figcaption>The morning ferry leaves the pier</figcaption></figure>',
    );
    expect(extract(html).text).not.toContain('morning ferry leaves');
    switchOffRules(['caption']);
    expect(ruleOff('caption')).toBe(true);
    expect(extract(html).text).toContain('morning ferry leaves');
    switchOffRules([]);
    expect(ruleOff('caption')).toBe(false);
    expect(extract(html).text).not.toContain('morning ferry leaves');
  });

  it('switches off only the rules named', () => {
    const html = story(
      '<figure><img src="ferry.jpg" alt=""><figcaption>The morning ferry leaves the pier</figcaption></figure><p><a class="btn" href="/tickets">Buy tickets</a></p>',
    );
    expect(extract(html).text).not.toContain('Buy tickets');
    switchOffRules(['link-button']);
    const { text } = extract(html);
    expect(text).toContain('Buy tickets');
    expect(text).not.toContain('morning ferry leaves');
  });
});
