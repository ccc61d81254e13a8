import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { FastTokenizer } from './tokenizer.js';

/** Every callback with its arguments and the text it covers, in order. */
function events(Make: typeof Tokenizer, html: string, slices = 1): string[] {
  const out: string[] = [];
  let buffer = '';
  const record =
    (name: string) =>
    (...args: number[]): void => {
      const [start, end] = args;
      const text = end !== undefined && start !== undefined ? buffer.slice(start, end) : '';
      out.push(`${name}(${args.join(',')}) ${JSON.stringify(text)}`);
    };
  const names = [
    'onattribdata', 'onattribentity', 'onattribend', 'onattribname', 'oncdata', 'onclosetag', 'oncomment',
    'ondeclaration', 'onend', 'onopentagend', 'onopentagname', 'onprocessinginstruction', 'onselfclosingtag',
    'ontext', 'ontextentity',
  ] as const; // prettier-ignore
  const cbs = Object.fromEntries(names.map((n) => [n, record(n)])) as unknown as TokenizerCallbacks;
  const tokenizer = new Make({ decodeEntities: true }, cbs);
  const size = Math.ceil(html.length / slices);
  for (let i = 0; i < html.length; i += size) {
    // Its indices count from the start of the input: the texts it reports lie in the slices written so far.
    buffer += html.slice(i, i + size);
    tokenizer.write(html.slice(i, i + size));
  }
  tokenizer.end();
  return out;
}

const PAGES = [
  '<html><head><script>if (a < b && c<d) x = "</scr" + "ipt>"; </script><style>a<b{}</style></head></html>',
  '<p>text<!-- a comment -- with -> dashes --><!doctype html><?xml version="1.0"?></p>',
  '<script>never closed < at all <',
  '<div><!-- unterminated comment',
  '<title>a &amp; b < c</title><textarea>x<y</textarea><script></SCRIPT ><p>after</p>',
  '<svg><![CDATA[ <raw> ]]></svg><p a="1 > 2" b=\'<\'>x</p>',
  '<p a="x&amp;y&#65;" b=\'&lt;&notanentity\' c=&quot;>a &amp; b &#x3c; c &notanentity; d &amp</p>&',
  `<div title="${'a'.repeat(500)}&amp;">${'text '.repeat(500)}&copy;${'more text '.repeat(300)}</div>`,
  // JSON in attribute values, an entity at every key: the next quote is remembered across the entities
  `<div data-o='${'{&quot;k&quot;:&quot;v&lt;w&quot;},'.repeat(300)}' t="${'&amp;x'.repeat(200)}">a &amp; b</div>` +
    `<p d="&quot;'&quot;" s='"&amp;"'>${'&lt;t&gt; '.repeat(100)}<i c="&quot;">x</i></p>`,
];

describe('FastTokenizer', () => {
  it("replaces methods htmlparser2's Tokenizer still has (a rename would silently bring the slow loops back)", () => {
    const methods = Tokenizer.prototype as unknown as Record<string, unknown>;
    for (const name of [
      'fastForwardTo',
      'stateText',
      'stateInAttributeValueDoubleQuotes',
      'stateInAttributeValueSingleQuotes',
    ]) {
      expect(typeof methods[name], name).toBe('function');
      expect(Object.hasOwn(FastTokenizer.prototype, name), name).toBe(true);
    }
  });

  it('reports the same events as htmlparser2 Tokenizer, whole and written in slices', () => {
    const long = `<script>${'var a = b < c;\n'.repeat(2000)}</script><p>x</p><!--${'-'.repeat(3000)}>-->`;
    for (const html of [...PAGES, long]) {
      for (const slices of [1, 3, 7]) {
        expect(events(FastTokenizer, html, slices), `${html.slice(0, 40)} in ${slices}`).toEqual(
          events(Tokenizer, html, slices),
        );
      }
    }
  });
});
