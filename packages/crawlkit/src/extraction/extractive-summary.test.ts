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

  it('keeps the characters of code spans, escapes and comparisons, and drops only the markup around text', () => {
    // A documentation page as the markdown converter writes it: identifiers in code spans, escaped `*`, `<` as text.
    const markdown =
      'Set `max_age_ms` to `2 * 60_000` before calling `ck.scrape()`, with **bold** and *emphasis* words.\n\n' +
      '> The price is 5\\*3 = 15, and 2 < 3 > 1 holds for `Array<T>` and ~~old~~ `__init__` methods alike.\n\n' +
      'Read <sup>1</sup> the note: a * b is a product, not emphasis in this long sentence.';
    expect(summarizeExtractive(markdown, 2000)).toBe(
      'Set max_age_ms to 2 * 60_000 before calling ck.scrape(), with bold and emphasis words. ' +
        'The price is 5*3 = 15, and 2 < 3 > 1 holds for Array<T> and old __init__ methods alike. ' +
        'Read 1 the note: a * b is a product, not emphasis in this long sentence.',
    );
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

  // Thai and Lao have no full stop: a paragraph is a sentence and spaces separate its phrases (Wikipedia-style leads).
  const BANGKOK =
    'กรุงเทพมหานคร เป็นเมืองหลวงและนครที่มีประชากรมากที่สุดของประเทศไทย เป็นศูนย์กลางการปกครอง การศึกษา การคมนาคมขนส่ง การเงินการธนาคาร การพาณิชย์ การสื่อสาร และความเจริญของประเทศ ตั้งอยู่บนสามเหลี่ยมปากแม่น้ำเจ้าพระยา มีแม่น้ำเจ้าพระยาไหลผ่านและแบ่งเมืองออกเป็น 2 ฝั่ง คือ ฝั่งพระนครและฝั่งธนบุรี';
  const CUISINE =
    'อาหารไทยเป็นอาหารประจำชาติของประเทศไทย มีลักษณะเด่นคือการผสมผสานรสชาติหลายอย่างเข้าด้วยกันอย่างกลมกลืน ทั้งรสเปรี้ยว หวาน เค็ม เผ็ด และขม อาหารไทยที่มีชื่อเสียงในต่างประเทศ เช่น ต้มยำกุ้ง ผัดไทย แกงเขียวหวาน และส้มตำ';
  const LAOS =
    'ສາທາລະນະລັດ ປະຊາທິປະໄຕ ປະຊາຊົນລາວ ເປັນປະເທດທີ່ບໍ່ມີທາງອອກສູ່ທະເລ ຕັ້ງຢູ່ໃນພາກພື້ນອາຊີຕາເວັນອອກສ່ຽງໃຕ້ ມີຊາຍແດນຕິດກັບ ມຽນມາ ຈີນ ຫວຽດນາມ ກຳປູເຈຍ ແລະ ໄທ ນະຄອນຫຼວງວຽງຈັນ ເປັນນະຄອນຫຼວງ ແລະ ເປັນເມືອງທີ່ໃຫຍ່ທີ່ສຸດຂອງປະເທດ';

  /** Whether `summary` is the paragraph's leading phrases: the paragraph goes on with a space after it, or ends. */
  const endsBetweenPhrases = (paragraph: string, summary: string) =>
    paragraph.startsWith(summary) && (summary.length === paragraph.length || paragraph[summary.length] === ' ');

  it.each([
    ['Thai', BANGKOK, 120],
    ['Thai', CUISINE, 100],
    ['Lao', LAOS, 100],
  ])('ends a long %s paragraph between two phrases, never inside one', (_script, paragraph, cap) => {
    const summary = summarizeExtractive(`# หัวเรื่อง\n\n${paragraph}`, cap);
    expect(summary.length).toBeGreaterThan(cap / 3);
    expect(summary.length).toBeLessThanOrEqual(cap);
    expect(endsBetweenPhrases(paragraph, summary)).toBe(true);
    expect(summarizeExtractive(paragraph)).toBe(paragraph);
  });

  it('takes whole Thai paragraphs, then the leading phrases of the one at the cap', () => {
    const summary = summarizeExtractive(`${CUISINE}\n\n${BANGKOK}`, 400);
    expect(summary.startsWith(`${CUISINE} `)).toBe(true);
    const rest = summary.slice(CUISINE.length + 1);
    expect(rest.length).toBeGreaterThan(50);
    expect(endsBetweenPhrases(BANGKOK, rest)).toBe(true);
  });

  it('ends Khmer sentences at the khan (។), and leaves out the one that passes the cap', () => {
    const first = 'ប្រទេសកម្ពុជា ជាប្រទេសមួយស្ថិតនៅក្នុងតំបន់អាស៊ីអាគ្នេយ៍។';
    const second = 'រាជធានីរបស់ប្រទេសកម្ពុជាគឺ ភ្នំពេញ ដែលជាទីក្រុងធំជាងគេបំផុត។';
    expect(summarizeExtractive(`${first} ${second}`)).toBe(`${first} ${second}`);
    expect(summarizeExtractive(`${first} ${second}`, 100)).toBe(first);
  });

  it('falls back to the start of the text when it has no sentences', () => {
    expect(summarizeExtractive('- apples\n- pears\n- plums')).toBe('apples pears plums');
    expect(summarizeExtractive('# Opening hours\n\n## Monday to Friday')).toBe('Opening hours Monday to Friday');
    expect(summarizeExtractive('')).toBe('');
  });

  it('does not end a sentence at an abbreviation, an initial or a full stop before a word in lower case', () => {
    const text = [
      'Dr. Dana Whitfield of St. Albans wrote this guide with George W. Bush in mind, e.g. for the U.S. market.',
      'Hone the edge on a fine stone, i.e. one of 8000 grit, etc. and strop it after every session at the bench.',
    ].join(' ');
    // each sentence is whole: its first words kept (not dropped as a short fragment), and not cut at `e.g.`
    expect(summarizeExtractive(text, 400)).toBe(text);
    expect(summarizeExtractive(text, 60)).toBe(text.slice(0, text.indexOf('market.') + 7));
    // a full stop after a word, a unit or a lone letter before a capital still ends its sentence
    expect(
      summarizeExtractive('Take a supplement of vitamin D. And walk outside every single day of the week.', 40),
    ).toBe('Take a supplement of vitamin D.');
  });
});
