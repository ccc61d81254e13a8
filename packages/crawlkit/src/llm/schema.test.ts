import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { scrapeRequestSchema } from '../v2/scrape-options.js';
import { parseModelJson } from './json-text.js';
import { prepareSchema, toJsonSchema, validateAgainst } from './schema.js';
import { tidyCut, trimToTokenBudget } from './token-budget.js';

describe('prepareSchema', () => {
  it('normalises per reference §3.2, at every depth', () => {
    const prepared = prepareSchema({
      type: 'object',
      properties: {
        a: { type: 'string' },
        nested: {
          type: 'object',
          properties: { x: { type: 'number' } },
          required: ['x', 'y'],
          additionalProperties: false,
        },
      },
      required: ['a', 'b'],
      additionalProperties: true,
    });
    expect(prepared).toEqual({
      wrapped: false,
      schema: {
        type: 'object',
        properties: {
          a: { type: 'string' },
          nested: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        },
        required: ['a'],
      },
    });
  });

  it('wraps a non-object root and keeps definitions at the root', async () => {
    const prepared = prepareSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: { $ref: '#/definitions/item' },
      definitions: { item: { type: 'string' } },
    });
    expect(prepared.wrapped).toBe(true);
    expect(prepared.schema).toMatchObject({
      type: 'object',
      required: ['value'],
      definitions: { item: { type: 'string' } },
      properties: { value: { type: 'array' } },
    });
    expect(await validateAgainst(prepared.schema, { value: ['a'] })).toEqual({ valid: true });
    expect(await validateAgainst(prepared.schema, { value: [1] })).toMatchObject({ valid: false });
  });
});

describe('validateAgainst', () => {
  it('lists readable errors', async () => {
    const schema = { type: 'object', properties: { n: { type: 'number' }, k: { enum: ['a', 'b'] } }, required: ['n'] };
    const verdict = await validateAgainst(schema, { k: 'c' });
    expect(verdict).toMatchObject({ valid: false });
    if (verdict.valid) return;
    expect(verdict.errors).toContain("(root) must have required property 'n'");
    expect(verdict.errors).toContain('/k must be equal to one of the allowed values (["a","b"])');
  });

  it('uses the dialect the schema declares (2020-12 from zod defaults)', async () => {
    const schema = z.toJSONSchema(z.object({ a: z.string() })) as Record<string, unknown>;
    expect(String(schema.$schema)).toContain('2020-12');
    expect(await validateAgainst(schema, { a: 'x' })).toEqual({ valid: true });
    expect(await validateAgainst(schema, { a: 1 })).toMatchObject({ valid: false });
  });

  it('compiles schemas that reuse an $id (each request brings its own)', async () => {
    const a = { $id: 'https://example.com/s', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const b = { $id: 'https://example.com/s', type: 'object', properties: { b: { type: 'number' } }, required: ['b'] };
    expect(await validateAgainst(a, { a: 'x' })).toEqual({ valid: true });
    expect(await validateAgainst(b, { b: 1 })).toEqual({ valid: true });
    expect(await validateAgainst(structuredClone(a), { b: 1 })).toMatchObject({ valid: false });
  });

  it('ignores formats rather than failing on them', async () => {
    expect(await validateAgainst({ type: 'string', format: 'date-time' }, 'next Tuesday')).toEqual({ valid: true });
  });

  it('rejects a schema that is not JSON Schema with BAD_REQUEST', async () => {
    await expect(validateAgainst({ type: 'no-such-type' }, 1)).rejects.toThrow(/not a valid JSON Schema/);
  });
});

describe('toJsonSchema', () => {
  it('converts zod to a draft-07 schema of its input and passes JSON Schema through', () => {
    expect(toJsonSchema(z.object({ a: z.string(), b: z.number().optional() }))).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
    });
    const plain = { type: 'object', properties: {} };
    expect(toJsonSchema(plain)).toBe(plain);
  });

  it('is applied when a v2 body carries a zod schema', () => {
    const parsed = scrapeRequestSchema.parse({
      url: 'https://example.com',
      formats: [{ type: 'json', schema: z.object({ title: z.string() }) }],
    });
    expect(parsed.formats[0]).toMatchObject({
      type: 'json',
      schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    });
  });
});

describe('parseModelJson', () => {
  it('reads plain, fenced and embedded JSON', () => {
    expect(parseModelJson('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(parseModelJson('```json\n{"a":1}\n```')).toEqual({ value: { a: 1 } });
    expect(parseModelJson('Sure! Here it is: {"a":"}{","b":[1,2]} Hope that helps.')).toEqual({
      value: { a: '}{', b: [1, 2] },
    });
    expect(parseModelJson('[1, 2]')).toEqual({ value: [1, 2] });
    expect(parseModelJson('"text"')).toEqual({ value: 'text' });
  });

  it('skips thinking blocks and spans that are not JSON', () => {
    expect(parseModelJson('<think>The schema wants {name}. Let me look [carefully].</think>\n{"name":"Lamp"}')).toEqual(
      {
        value: { name: 'Lamp' },
      },
    );
    expect(parseModelJson('Fields like {name} are needed. Answer: {"name":"Lamp"}')).toEqual({
      value: { name: 'Lamp' },
    });
  });

  it('returns undefined when there is no JSON value', () => {
    expect(parseModelJson('')).toBeUndefined();
    expect(parseModelJson('no json here')).toBeUndefined();
    expect(parseModelJson('{"a": ')).toBeUndefined();
  });
});

describe('trimToTokenBudget', () => {
  it('keeps short input and trims long input with the warning', () => {
    expect(trimToTokenBudget('short text', 100)).toEqual({ text: 'short text' });
    const long = 'alpha beta gamma delta '.repeat(2000);
    const trimmed = trimToTokenBudget(long, 500);
    expect(trimmed.text.length).toBeLessThan(long.length / 5);
    expect(long.startsWith(trimmed.text)).toBe(true);
    expect(trimmed.warning).toMatch(/more tokens \(\d+\) than the maximum we allow \(500\)/);
    // at a word's end, not inside 'gamma'
    expect(trimmed.text).toMatch(/(alpha|beta|gamma|delta)$/);
    expect(trimmed.warning).toMatch(
      new RegExp(
        `automatically trimmed\\. The model was given the first ${trimmed.text.length.toLocaleString('en-US')} ` +
          'of 46,000 characters \\(\\d+%\\)\\.$',
      ),
    );
    expect(trimToTokenBudget(long, 500, 'fields may be missing').warning).toMatch(/\(\d+%\): fields may be missing\.$/);
  });
});

describe('tidyCut', () => {
  it('ends the cut at a line or sentence end, else a word end in its last tenth, else where it is', () => {
    const text = `${'x'.repeat(95)}\nOne two, three four`;
    // mid-word at 'thr|ee': back to the line end
    expect(tidyCut(text, 103)).toBe('x'.repeat(95));
    // the later of a line and a sentence end
    expect(tidyCut(`${'x'.repeat(95)}\nOne two. Three four`, 104)).toBe(`${'x'.repeat(95)}\nOne two.`);
    const prose = `${'word '.repeat(19)}said. Then more words`;
    expect(tidyCut(prose, prose.length - 3)).toBe(`${'word '.repeat(19)}said. Then more`);
    expect(tidyCut(prose, 102)).toBe(`${'word '.repeat(19)}said.`);
    expect(tidyCut(`${'word '.repeat(19)}saying so`, 99)).toBe('word '.repeat(19).trimEnd());
    // a cut right before a space or a line end stays where it is
    expect(tidyCut(prose, 100)).toBe(`${'word '.repeat(19)}said.`);
    expect(tidyCut(text, 95)).toBe('x'.repeat(95));
    // no end in the last tenth: the cut as it is
    expect(tidyCut('y'.repeat(200), 150)).toBe('y'.repeat(150));
    expect(tidyCut('short', 10)).toBe('short');
  });
});
