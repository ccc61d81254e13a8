import { describe, expect, it } from 'vitest';

import { summarizeExtractive } from './extractive-summary.js';

const ARTICLE = `# Sharpening a Hand Plane

By Dana Whitfield · March 14, 2026 · 6 min read

A sharp iron is the difference between a plane that sings and one that tears the wood fibres apart.
This guide walks through flattening the back, setting a primary bevel and honing a micro-bevel.

![A plane iron on a stone](https://cdn.acme.test/plane.jpg)

\`\`\`text
grit: 1000 -> 4000 -> 8000
\`\`\`

| Stone | Grit |
| --- | --- |
| Coarse | 1000 |

Start with the back of the iron, because no edge can be sharper than the flatness of the two faces that meet there.
Work the [coarse stone](https://acme.test/stones) until the scratch pattern reaches the edge.`;

describe('summarizeExtractive', () => {
  it('takes the leading sentences of the prose, without headings, bylines, code, images or tables', () => {
    const summary = summarizeExtractive(ARTICLE);
    expect(summary.startsWith('A sharp iron is the difference between a plane that sings')).toBe(true);
    expect(summary).toContain('This guide walks through flattening the back');
    expect(summary).not.toMatch(/Sharpening a Hand Plane|Dana Whitfield|grit:|Coarse|cdn\.acme|\|/);
    expect(summary.length).toBeLessThanOrEqual(600);
  });

  it('keeps link text and drops the URL', () => {
    const summary = summarizeExtractive(ARTICLE, 2000);
    expect(summary).toContain('Work the coarse stone until the scratch pattern reaches the edge.');
    expect(summary).not.toContain('https://acme.test/stones');
  });

  it('stops near the character cap but always returns at least one sentence', () => {
    const one = summarizeExtractive(ARTICLE, 50);
    expect(one).toBe(
      'A sharp iron is the difference between a plane that sings and one that tears the wood fibres apart.',
    );
  });

  it('summarises text in scripts without spaces between words', () => {
    const summary = summarizeExtractive(
      '# 标题\n\n这是一个关于手刨磨刀的详细指南，介绍了从粗磨到精磨的全部步骤。第二句话说明了为什么要先磨平刀背。',
    );
    expect(summary).toBe(
      '这是一个关于手刨磨刀的详细指南，介绍了从粗磨到精磨的全部步骤。 第二句话说明了为什么要先磨平刀背。',
    );
  });

  it.each([
    ['Hindi', 'भारत एक विशाल देश है जिसमें अनेक भाषाएँ बोली जाती हैं।', 'दिल्ली भारत की राजधानी है और यह एक बहुत बड़ा शहर है।'],
    [
      'Urdu',
      'پاکستان ایک بڑا ملک ہے جس میں بہت سی زبانیں بولی جاتی ہیں۔',
      'لاہور ایک پرانا اور بہت خوبصورت شہر ہے جہاں لوگ رہتے ہیں۔',
    ],
    [
      'Arabic',
      'هل تعرف أن القاهرة هي أكبر مدينة في العالم العربي كله؟',
      'نعم، إنها كذلك بالتأكيد في هذه الأيام وفي كل الأيام.',
    ],
  ])('ends %s sentences at their own full stop or question mark', (_script, first, second) => {
    expect(summarizeExtractive(`${first} ${second}`)).toBe(`${first} ${second}`);
    expect(summarizeExtractive(`${first} ${second}`, 60)).toBe(first);
  });

  it('keeps a full stop inside a number or a name in its sentence', () => {
    const text = 'Version 2.5 of the plane guide is out on acme.test today. It covers scrapers as well as planes.';
    expect(summarizeExtractive(text)).toBe(text);
  });

  it('falls back to the start of the text when it has no sentences', () => {
    expect(summarizeExtractive('- apples\n- pears\n- plums')).toBe('apples pears plums');
    expect(summarizeExtractive('# Opening hours\n\n## Monday to Friday')).toBe('Opening hours Monday to Friday');
    expect(summarizeExtractive('')).toBe('');
  });
});
