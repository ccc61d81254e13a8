import { expect } from 'vitest';

/** Fails unless each of `texts` is in `markdown`, in that order (the markdown is shown on a failure). */
export function expectInOrder(markdown: string, texts: readonly string[]): void {
  const at = texts.map((text) => markdown.indexOf(text));
  expect(
    at.every((i) => i >= 0),
    markdown,
  ).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
}
