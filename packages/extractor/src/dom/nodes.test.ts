import render from 'dom-serializer';
import { cloneNode, Element, isTag, isText, Text } from 'domhandler';
import { describe, expect, it } from 'vitest';

import { newElement, newText } from './nodes.js';
import { parseHtml } from './parse.js';

describe('the parser’s nodes', () => {
  it('are domhandler’s elements and text nodes, accessors and type included', () => {
    const text = newText('hi');
    const el = newElement('p', { class: 'x' }, [text]);
    text.parent = el;
    expect(el).toBeInstanceOf(Element);
    expect(text).toBeInstanceOf(Text);
    expect(isTag(el) && isText(text)).toBe(true);
    expect([el.tagName, el.nodeType, el.firstChild, el.attributes]).toEqual([
      'p',
      1,
      text,
      [{ name: 'class', value: 'x', namespace: undefined, prefix: undefined }],
    ]);
    expect([text.nodeValue, text.nodeType, text.parentNode]).toEqual(['hi', 3, el]);
    expect([newElement('script', {}, []).type, newElement('style', {}, []).type]).toEqual(['script', 'style']);
  });

  it('serialise and clone as the class-made ones do', () => {
    const doc = parseHtml('<div id="a"><p>one <b>two</b></p><script>x()</script><br></div>');
    const div = doc.children[0] as Element;
    const made = new Element('div', { id: 'a' }, []);
    expect(render(doc)).toBe('<div id="a"><p>one <b>two</b></p><script>x()</script><br></div>');
    expect(render(cloneNode(div, true))).toBe(render(div));
    expect([div.name, div.attribs, div.type, div.parent, div.prev, div.next]).toEqual([
      made.name,
      made.attribs,
      made.type,
      doc,
      null,
      null,
    ]);
  });
});
