import { expect, it } from 'vitest';

import { sortedJson } from './sorted-json.js';

it('says the same for values whose keys come in another order, at any depth', () => {
  const a = { b: 1, a: { d: [{ y: 2, x: 1 }], c: 'x' } };
  const b = { a: { c: 'x', d: [{ x: 1, y: 2 }] }, b: 1 };
  expect(sortedJson(a)).toBe(sortedJson(b));
  expect(sortedJson(a)).toBe('{"a":{"c":"x","d":[{"x":1,"y":2}]},"b":1}');
});

it('keeps array order, drops what JSON drops, and says undefined for what JSON cannot say', () => {
  expect(sortedJson([2, 1])).not.toBe(sortedJson([1, 2]));
  expect(sortedJson({ a: undefined, b: 1 })).toBe(sortedJson({ b: 1 }));
  expect(sortedJson(undefined)).toBe('undefined');
});
