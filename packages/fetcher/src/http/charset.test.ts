import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';

import { decodeText } from './charset.js';

const page = (body: string, head = '') =>
  `<!doctype html><html><head>${head}<title>t</title></head><body><p>${body}</p></body></html>`;

const RUSSIAN =
  'Широкая электрификация южных губерний даст мощный толчок подъёму сельского хозяйства. Съешь же ещё этих мягких французских булок, да выпей чаю. В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!';
const JAPANESE =
  'いろはにほへと ちりぬるを わかよたれそ つねならむ うゐのおくやま けふこえて あさきゆめみし ゑひもせす。東京都渋谷区の天気は晴れです。日本語の文章を正しく読み取ることができるかを確かめます。';
const CHINESE =
  '我能吞下玻璃而不伤身体。天地玄黄，宇宙洪荒。日月盈昃，辰宿列张。寒来暑往，秋收冬藏。这是一个用于测试字符编码检测的中文段落，内容足够长以便统计方法做出判断。';
const TRADITIONAL =
  '我能吞下玻璃而不傷身體。天地玄黃，宇宙洪荒。日月盈昃，辰宿列張。寒來暑往，秋收冬藏。這是一個用於測試字元編碼偵測的中文段落，內容足夠長以便統計方法做出判斷。';

describe('decodeText', () => {
  it.each([
    ['windows-1251', RUSSIAN, 'windows-1251'],
    ['koi8-r', RUSSIAN, 'koi8-r'],
    ['euc-jp', JAPANESE, 'euc-jp'],
    ['shift_jis', JAPANESE, 'shift_jis'],
    ['gb18030', CHINESE, 'gb18030'],
    ['big5', TRADITIONAL, 'big5'],
  ])('guesses undeclared %s', (encoding, text, expected) => {
    const decoded = decodeText(iconv.encode(page(text), encoding), 'text/html');
    expect(decoded.text).toContain(text);
    // GBK-family guesses may name the superset
    expect(expected === 'gb18030' ? ['gb18030', 'gbk'] : [expected]).toContain(decoded.charset);
  });

  it('finds a meta charset declared after several KiB of head', () => {
    const head = `<script>${'var x = 1;\n'.repeat(300)}</script><meta charset="windows-1251">`;
    const decoded = decodeText(iconv.encode(page(RUSSIAN, head), 'windows-1251'), 'text/html');
    expect(decoded.charset).toBe('windows-1251');
    expect(decoded.text).toContain(RUSSIAN);
  });

  it('prefers the header charset over the meta', () => {
    const bytes = iconv.encode(page(RUSSIAN, '<meta charset="iso-8859-1">'), 'koi8-r');
    expect(decodeText(bytes, 'text/html', 'koi8-r').text).toContain(RUSSIAN);
  });

  it('reads a page labelled UTF-8 whose bytes are mostly not UTF-8 by its meta, else by a guess', () => {
    const declared = iconv.encode(page(RUSSIAN, '<meta charset="koi8-r">'), 'koi8-r');
    expect(decodeText(declared, 'text/html', 'utf-8')).toMatchObject({ charset: 'koi8-r' });
    const undeclared = decodeText(iconv.encode(page(RUSSIAN), 'windows-1251'), 'text/html', 'UTF-8');
    expect(undeclared).toMatchObject({ charset: 'windows-1251' });
    expect(undeclared.text).toContain(RUSSIAN);
    const stray = Buffer.concat([Buffer.from(page(JAPANESE, '<meta charset="koi8-r">')), Buffer.from([0xe9])]);
    expect(decodeText(stray, 'text/html', 'utf-8')).toMatchObject({ charset: 'utf-8' });
  });

  it('ignores an unknown label and a WHATWG "replacement" label, and sniffs instead', () => {
    const bytes = iconv.encode(page(RUSSIAN), 'windows-1251');
    expect(decodeText(bytes, 'text/html', 'no-such-charset').text).toContain(RUSSIAN);
    expect(decodeText(bytes, 'text/html', 'iso-2022-kr').text).toContain(RUSSIAN);
  });

  it('decodes labels outside the WHATWG standard through iconv-lite', () => {
    const bytes = iconv.encode('box: ╔═╗ and ñ', 'cp437');
    expect(decodeText(bytes, 'text/plain', 'cp437')).toEqual({ text: 'box: ╔═╗ and ñ', charset: 'cp437' });
  });

  it('keeps a pure-ASCII Latin-1 label, and defaults undeclared JSON and text to UTF-8', () => {
    expect(decodeText(Buffer.from('plain ascii'), 'text/plain', 'iso-8859-1').charset).toBe('windows-1252');
    expect(decodeText(Buffer.from('{"a":"é"}'), 'application/json')).toEqual({ text: '{"a":"é"}', charset: 'utf-8' });
  });

  it("reads windows-1252's quotes, dashes and euro sign, under the Latin-1 labels pages declare too", () => {
    // Node 22.16's own decoder read these bytes as invisible C1 controls.
    const text = '“Prix” – 20 € … l’été';
    for (const label of ['windows-1252', 'iso-8859-1', 'latin1']) {
      expect(decodeText(iconv.encode(text, 'windows-1252'), 'text/plain', label), label).toEqual({
        text,
        charset: 'windows-1252',
      });
    }
  });

  it('does not look for meta tags in plain text', () => {
    const bytes = Buffer.from('<meta charset="shift_jis"> is how HTML declares it');
    expect(decodeText(bytes, 'text/plain').charset).toBe('utf-8');
  });
});

describe('decodeText of a short page that declares no charset, by its language', () => {
  const short = (lang: string, text: string) =>
    `<!doctype html><html${lang}><head><title>${text}</title></head><body><p>${text}</p></body></html>`;

  it.each([
    ['ru', 'Контакты', 'windows-1251'],
    ['ru', 'Москва', 'koi8-r'],
    ['ru', 'Главная страница', 'iso-8859-5'],
    ['ru', 'Москва', 'ibm866'],
    ['uk', 'Ласкаво просимо, Київ, ґанок', 'koi8-u'],
    ['bg', 'България', 'windows-1251'],
    ['sr-Cyrl-RS', 'Београд', 'windows-1251'],
    ['el', 'Καλώς ήρθατε', 'windows-1253'],
    ['he', 'שלום עולם', 'windows-1255'],
    ['ar', 'مرحبا بكم', 'windows-1256'],
    ['th', 'ยินดีต้อนรับ', 'windows-874'],
    ['pl', 'Zażółć gęślą', 'iso-8859-2'],
    ['sr-Latn', 'Šta ćeš', 'windows-1250'],
  ])('<html lang="%s">: %s in %s', (lang, text, encoding) => {
    const bytes = iconv.encode(short(` lang="${lang}"`, text), encoding);
    expect(decodeText(bytes, 'text/html').text).toContain(`<p>${text}</p>`);
  });

  it('takes the Content-Language header when the page has no lang, the lang over the header otherwise', () => {
    // Letters alone cannot tell ISO-8859-5 `нама` from windows-1251 `ЭРЬР` (both Cyrillic, both cased as text is)
    const bytes = iconv.encode(short('', 'нама'), 'iso-8859-5');
    expect(decodeText(bytes, 'text/html').charset).not.toBe('iso-8859-5');
    expect(decodeText(bytes, 'text/html', undefined, 'ru-RU, en')).toMatchObject({ charset: 'iso-8859-5' });
    const greek = iconv.encode(short(' lang="el"', 'Καλώς ήρθατε'), 'windows-1253');
    expect(decodeText(greek, 'text/html', undefined, 'ru').text).toContain('Καλώς ήρθατε');
  });

  it('keeps a Latin page whose lang names a Cyrillic language Latin (its accents would land inside Latin words)', () => {
    const bytes = iconv.encode(short(' lang="ru"', 'Über uns, Größe'), 'windows-1252');
    expect(decodeText(bytes, 'text/html')).toMatchObject({ charset: 'windows-1252' });
  });

  it('leaves a language without a table entry to the letters of each reading', () => {
    const bytes = iconv.encode(short(' lang="en"', 'Контакты'), 'windows-1251');
    expect(decodeText(bytes, 'text/html')).toMatchObject({ charset: 'windows-1251' });
  });
});

describe('decodeText of a short Latin page that declares nothing, by the letters of its reading', () => {
  // Each came out wrong before, by chardet's guess on a heading alone: ISO-8859-2 for the French and Spanish pages,
  // windows-1252 or -1257 for the Central European ones.
  const headings: Record<string, string[]> = {
    'windows-1252': ['Problème résolu'],
    'iso-8859-1': ['Mañana será otro día'],
    'windows-1250': ['Zażółć gęślą jaźń', 'Árvíztűrő tükörfúrógép'],
    'iso-8859-2': ['Ogłoszenia drobne', 'Hlavná stránka a kontakty'],
    // Came out windows-1252 (`c½ur`, `Œ` as `¼`) or windows-1250, ISO-8859-2 (`Śakki`)
    'iso-8859-15': ['Le cœur de la forêt', 'Œuvres complètes', 'Šakki ja žargon'],
  };
  it.each(Object.keys(headings))('reads each page in %s', (encoding) => {
    for (const heading of headings[encoding]!) {
      const html = `<!doctype html><html><head><title>Page</title></head><body><h1>${heading}</h1></body></html>`;
      expect(decodeText(iconv.encode(html, encoding), 'text/html').text).toBe(html);
    }
  });
});

describe('decodeText of a short Cyrillic page that declares nothing, by the letters of its reading', () => {
  // Each came out in a Latin charset before (windows-1252, -1250, -1257: `Íîâîñòè`, `Ęŕňŕëîă`) or KOI8-R for KOI8-U
  const pages: [string, string, string][] = [
    ['windows-1251', 'Пошук', 'Введіть слово для пошуку.'],
    ['windows-1251', 'Каталог', 'Цените са в лева.'],
    ['windows-1251', 'Контакт', 'Наша адреса је у Новом Саду.'],
    ['koi8-u', 'Головна сторінка', 'Ласкаво просимо до Києва.'],
    ['iso-8859-5', 'Търсене', 'Въведете дума за търсене.'],
    ['ibm866', 'Новости', 'Последние новости города и области.'],
    ['ibm866', 'Ошибка 404', 'Страница не найдена.'],
  ];
  it.each(pages)('reads a page in %s: %s', (encoding, title, line) => {
    const html = `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${line}</p></body></html>`;
    expect(decodeText(iconv.encode(html, encoding), 'text/html')).toEqual({ text: html, charset: encoding });
  });

  it('reads a longer page in DOS IBM866, which chardet calls an unsure Greek or Hebrew charset', () => {
    // chardet has no IBM866 model: windows-1253 at 14-15 or windows-1255 at 27-29 (of 100) for these, taken as is
    // before
    const lines = [
      'Москва — столица России, город федерального значения, административный центр Центрального округа. ',
      'Московская область окружает город, в состав которой он не входит. ',
    ];
    for (const [line, times] of [
      [lines[0]!, 10],
      [lines.join(''), 40],
    ] as const) {
      const html = page(line.replaceAll('—', '-').repeat(times));
      expect(decodeText(iconv.encode(html, 'ibm866'), 'text/html')).toEqual({ text: html, charset: 'ibm866' });
    }
  });

  it.each([
    ['iso-8859-7', 'Η Αθήνα είναι η πρωτεύουσα και μεγαλύτερη πόλη της Ελλάδας. '],
    ['iso-8859-8', 'ירושלים היא עיר הבירה של ישראל והעיר הגדולה ביותר בה. '],
    ['windows-1256', 'القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها. '],
    ['windows-1256', 'الصفحة الرئيسية'],
  ])('keeps a page in %s that chardet names', (encoding, text) => {
    for (const times of [1, 10]) {
      const html = page(text.repeat(times));
      expect(decodeText(iconv.encode(html, encoding), 'text/html')).toEqual({ text: html, charset: encoding });
    }
  });

  it('keeps a Latin page whose signs read as Cyrillic letters alone (`€` is `Ђ` in windows-1251)', () => {
    const html =
      '<!doctype html><html><head><title>Prix</title></head><body><p>Prix : 20 €, TVA comprise</p></body></html>';
    expect(decodeText(iconv.encode(html, 'windows-1252'), 'text/html')).toEqual({
      text: html,
      charset: 'windows-1252',
    });
  });
});
