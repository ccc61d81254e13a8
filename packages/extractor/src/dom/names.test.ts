import { describe, expect, it } from 'vitest';

import { lowerName } from './names.js';

describe('lowerName', () => {
  it('reads a name as slice and lower case would, whether or not it is a common one', () => {
    const html = '<div class=a><DIV CLASS=b><divx classy><data-src-x><svg viewbox><é-x>';
    const names = [...html.matchAll(/[<\s]([^\s<>=]+)/g)].map((m) => [m.index + 1, m.index + 1 + m[1]!.length]);
    for (const [start, end] of names) {
      expect(lowerName(html, start!, end!)).toBe(html.slice(start, end).toLowerCase());
    }
  });

  it('reads a common name only where it stands whole (its length counts, not its prefix)', () => {
    const html = 'xx class yy';
    expect(lowerName(html, 3, 8)).toBe('class');
    expect(lowerName(html, 3, 7)).toBe('clas');
  });
});
