// How each HTML element converts. Elements not listed are inline and transparent (their content flows through).

export const INLINE = 0;
export const SKIP = 1;
export const BLOCK = 2;
export const PARAGRAPH = 3;
export const BREAK = 4;
export const RULE = 5;
export const HEADING = 6;
export const LINK = 7;
export const IMAGE = 8;
export const EMPHASIS = 9;
export const STRONG = 10;
export const STRIKE = 11;
export const SUPERSCRIPT = 12;
export const SUBSCRIPT = 13;
export const CODE = 14;
export const PRE = 15;
export const LIST = 16;
export const ORDERED_LIST = 17;
export const ITEM = 18;
export const QUOTE = 19;
export const TABLE = 20;
export const CAPTION = 21;
export const TABLE_SECTION = 22;
export const ROW = 23;
export const CELL = 24;
export const TERM = 25;
export const DEFINITION = 26;
export const MATH = 27;
export const SCRIPT = 28;
export const INPUT = 29;
export const BASE = 30;
export const IFRAME = 31;
export const RUBY = 32;
export const QUOTATION = 33;
export const DEFINITION_LIST = 34;

// prettier-ignore
const entries: [number, string[]][] = [
  [
    SKIP,
    [
      'head', 'style', 'noscript', 'template', 'title', 'meta', 'link', 'svg', 'canvas', 'select', 'textarea',
      'object', 'embed', 'audio', 'video', 'map', 'area', 'source', 'track', 'frameset', 'frame', 'noframes',
      'datalist', 'param', 'applet', 'dialog', 'slot', 'mjx-math',
    ],
  ],
  [
    BLOCK,
    [
      'html', 'body', 'address', 'article', 'aside', 'center', 'details', 'summary', 'div', 'fieldset',
      'figcaption', 'figure', 'footer', 'form', 'header', 'hgroup', 'legend', 'main', 'nav', 'section', 'search',
      'optgroup', 'option', 'output', 'marquee', 'xmp', 'listing', 'plaintext',
    ],
  ],
  [PARAGRAPH, ['p']],
  [BREAK, ['br']],
  [RULE, ['hr']],
  [HEADING, ['h1', 'h2', 'h3', 'h4', 'h5', 'h6']],
  [LINK, ['a']],
  [IMAGE, ['img']],
  [EMPHASIS, ['em', 'i']],
  [STRONG, ['strong', 'b']],
  [STRIKE, ['del', 's', 'strike']],
  [SUPERSCRIPT, ['sup']],
  [SUBSCRIPT, ['sub']],
  [CODE, ['code', 'kbd', 'samp', 'tt']],
  [PRE, ['pre']],
  [LIST, ['ul', 'menu', 'dir']],
  [ORDERED_LIST, ['ol']],
  [ITEM, ['li']],
  [QUOTE, ['blockquote']],
  [TABLE, ['table']],
  [CAPTION, ['caption']],
  [TABLE_SECTION, ['thead', 'tbody', 'tfoot']],
  [ROW, ['tr']],
  [CELL, ['td', 'th']],
  [DEFINITION_LIST, ['dl']],
  [TERM, ['dt']],
  [DEFINITION, ['dd']],
  [MATH, ['math']],
  [SCRIPT, ['script']],
  [INPUT, ['input']],
  [BASE, ['base']],
  [IFRAME, ['iframe']],
  [RUBY, ['ruby']],
  [QUOTATION, ['q']],
];

export const TAGS = new Map<string, number>();
for (const [kind, names] of entries) for (const name of names) TAGS.set(name, kind);

/** Visual duplicates of math (KaTeX, MathJax, Wikipedia fallbacks) and footnote back-links: never content. */
export const SKIP_CLASS =
  /(?:^|\s)(?:katex-html|MathJax_Preview|MathJax|MathJax_Display|MathJax_SVG|MathJax_CHTML|mwe-math-fallback-image-inline|mwe-math-fallback-image-display|mw-cite-backlink|footnote-backref|data-footnote-backref|copy-button|copy-code-button|code-copy-button|clipboard-copy|fn-bracket|fn-backref)(?:\s|$)/;
