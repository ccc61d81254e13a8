import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { isCrawlkitError } from '../errors.js';
import { resolveLlmOptions, type LlmOptions } from './llm-options.js';
import { diffTopLevel, LlmService } from './llm-service.js';

type LanguageModelV4CallOptions = Parameters<MockLanguageModelV4['doGenerate']>[0];
type LanguageModelV4GenerateResult = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;

function reply(text: string, input = 10, output = 5): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: output, text: output, reasoning: undefined },
    },
    warnings: [],
  };
}

/** The AI SDK's mock model answering with the given texts in order. */
function mockModel(...texts: string[]) {
  const answers = [...texts];
  return new MockLanguageModelV4({
    doGenerate: () => {
      const text = answers.shift();
      if (text === undefined) throw new Error('the mock model ran out of answers');
      return Promise.resolve(reply(text));
    },
  });
}

function service(model: MockLanguageModelV4, settings: Omit<LlmOptions, 'model'> = {}) {
  return new LlmService(resolveLlmOptions({ model, ...settings }));
}

const promptText = (call: LanguageModelV4CallOptions) =>
  call.prompt
    .map((m) =>
      typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : '')).join(''),
    )
    .join('\n');

const productSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, price: { type: 'number' } },
  required: ['name', 'price', 'ghost'],
  additionalProperties: true,
};

describe('LlmService.extract', () => {
  it('sends the normalised schema as the response format and returns the validated value with usage', async () => {
    const model = mockModel('{"name":"Lamp","price":25}');
    const result = await service(model).extract({ markdown: '# Lamp\n\nprice: 25', schema: productSchema });
    expect(result.value).toEqual({ name: 'Lamp', price: 25 });
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    expect(result.warnings).toEqual([]);
    const call = model.doGenerateCalls[0]!;
    // §3.2: additionalProperties dropped beside properties, `required` entries naming missing properties removed.
    expect(call.responseFormat).toMatchObject({
      type: 'json',
      schema: { type: 'object', required: ['name', 'price'] },
    });
    expect(call.responseFormat?.type === 'json' && call.responseFormat.schema).not.toHaveProperty(
      'additionalProperties',
    );
    expect(promptText(call)).toContain('<page>\n# Lamp\n\nprice: 25\n</page>');
  });

  it('reads JSON wrapped in a code fence or prose without a repair round', async () => {
    const model = mockModel('Here you go:\n```json\n{"name":"Lamp","price":25}\n```');
    const result = await service(model).extract({ markdown: 'x', schema: productSchema });
    expect(result.value).toEqual({ name: 'Lamp', price: 25 });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('gives the model one repair round with the validation errors', async () => {
    const model = mockModel('{"name":"Lamp","price":"cheap"}', '{"name":"Lamp","price":12.5}');
    const result = await service(model).extract({ markdown: 'x', schema: productSchema });
    expect(result.value).toEqual({ name: 'Lamp', price: 12.5 });
    expect(result.usage.totalTokens).toBe(30);
    const second = model.doGenerateCalls[1]!;
    const messages = second.prompt.filter((m) => m.role !== 'system');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(promptText(second)).toMatch(/not valid: it does not match the JSON Schema: \/price must be number/);
  });

  it('repairs an answer that is not JSON at all', async () => {
    const model = mockModel('Sorry, I cannot help with that.', '{"name":"Lamp","price":1}');
    const result = await service(model).extract({ markdown: 'x', schema: productSchema });
    expect(result.value).toEqual({ name: 'Lamp', price: 1 });
    expect(promptText(model.doGenerateCalls[1]!)).toContain('it is not valid JSON');
  });

  it('fails with LLM_EXTRACTION_FAILED when the repaired answer is still invalid', async () => {
    const model = mockModel('{"name":1}', '{"name":2}');
    const error = await service(model)
      .extract({ markdown: 'x', schema: productSchema })
      .catch((e: unknown) => e);
    expect(isCrawlkitError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'LLM_EXTRACTION_FAILED' });
    expect((error as Error).message).toMatch(/\/name must be string/);
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('accepts a zod schema', async () => {
    const model = mockModel('{"title":"Hello","tags":["a","b"]}');
    const schema = z.object({ title: z.string(), tags: z.array(z.string()) });
    const result = await service(model).extract({ markdown: 'x', schema });
    expect(result.value).toEqual({ title: 'Hello', tags: ['a', 'b'] });
    expect(model.doGenerateCalls[0]!.responseFormat).toMatchObject({
      schema: { type: 'object', properties: { title: { type: 'string' } } },
    });
  });

  it('wraps a non-object root for the model and unwraps the answer', async () => {
    const model = mockModel('{"value":["a","b"]}');
    const result = await service(model).extract({
      markdown: 'x',
      schema: { type: 'array', items: { type: 'string' } },
    });
    expect(result.value).toEqual(['a', 'b']);
    expect(model.doGenerateCalls[0]!.responseFormat).toMatchObject({
      schema: { type: 'object', properties: { value: { type: 'array' } }, required: ['value'] },
    });
  });

  it('accepts the bare value for a wrapped root', async () => {
    const model = mockModel('["a","b"]');
    const result = await service(model).extract({
      markdown: 'x',
      schema: { type: 'array', items: { type: 'string' } },
    });
    expect(result.value).toEqual(['a', 'b']);
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('with only a prompt asks for JSON without a schema and passes the prompt', async () => {
    const model = mockModel('{"company":"Acme"}');
    const result = await service(model).extract({ markdown: 'Acme Corp', prompt: 'Which company is this?' });
    expect(result.value).toEqual({ company: 'Acme' });
    const call = model.doGenerateCalls[0]!;
    expect(call.responseFormat).toEqual({ type: 'json' });
    expect(promptText(call)).toContain('Which company is this?');
  });

  it('trims the page to the token budget with the reference warning', async () => {
    const model = mockModel('{"name":"x","price":1}');
    const markdown = 'word '.repeat(5000);
    const result = await service(model, { maxInputTokens: 200 }).extract({ markdown, schema: productSchema });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(
      /^The extraction content would have used more tokens \(\d+\) than the maximum we allow \(200\)\. -- the input has been automatically trimmed\. The model was given the first [\d,]+ of 25,000 characters \(\d+%\): fields found only later in the page may be missing\.$/,
    );
    expect(promptText(model.doGenerateCalls[0]!).length).toBeLessThan(markdown.length / 4);
  });

  it('passes the temperature and retry settings to the call', async () => {
    const model = mockModel('{"name":"x","price":1}');
    await service(model, { temperature: 0.3, maxOutputTokens: 256 }).extract({ markdown: 'x', schema: productSchema });
    expect(model.doGenerateCalls[0]).toMatchObject({ temperature: 0.3, maxOutputTokens: 256 });
  });

  it('keeps at most `concurrency` model tasks in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        return reply('{"name":"x","price":1}');
      },
    });
    const llm = service(model, { concurrency: 2 });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => llm.extract({ markdown: 'x', schema: productSchema })),
    );
    expect(results.every((r) => (r.value as { name: string }).name === 'x')).toBe(true);
    expect(most).toBe(2);
  });

  it('words a failed call as one line of plain text, without the terminal colours of the AI Gateway', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: () => {
        throw new Error(
          '\u001b[1m\u001b[31mUnauthenticated request to AI Gateway.\u001b[0m\n\nTo authenticate, set the ' +
            '\u001b[33mAI_GATEWAY_API_KEY\u001b[0m environment variable with your API key.\n\n',
        );
      },
    });
    const error = await service(model)
      .extract({ markdown: 'x', schema: productSchema })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'LLM_REQUEST_FAILED',
      message:
        'The language model request failed: Unauthenticated request to AI Gateway. To authenticate, set the ' +
        'AI_GATEWAY_API_KEY environment variable with your API key.',
    });
  });

  it('refuses without a model', async () => {
    const error = await new LlmService().extract({ markdown: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LLM_NOT_CONFIGURED' });
  });
});

describe('LlmService.summarize', () => {
  it('returns the model text, trimmed', async () => {
    const model = mockModel('  A page about lamps.  \n');
    const result = await service(model).summarize('# Lamps\n\nLamps are nice.');
    expect(result?.value).toBe('A page about lamps.');
    expect(model.doGenerateCalls[0]!.responseFormat).toBeUndefined();
  });

  it('drops the thinking of a reasoning model', async () => {
    const model = mockModel('<think>This page is about lamps.</think>\n\nA page about lamps.');
    const result = await service(model).summarize('# Lamps');
    expect(result?.value).toBe('A page about lamps.');
  });

  it('is undefined without a model', async () => {
    await expect(new LlmService().summarize('x')).resolves.toBeUndefined();
  });
});

describe('LlmService.compare', () => {
  it('with a schema extracts both versions and maps each changed top-level key', async () => {
    const model = mockModel('{"name":"Lamp","price":20}', '{"name":"Lamp","price":25}');
    const result = await service(model).compare({ previous: 'price: 20', current: 'price: 25', schema: productSchema });
    expect(result.value).toEqual({ price: { previous: 20, current: 25 } });
    expect(result.usage.totalTokens).toBe(30);
  });

  it('without a schema asks the model for a JSON object', async () => {
    const model = mockModel('["not", "an object"]', '{"price":{"previous":"20","current":"25"}}');
    const result = await service(model).compare({ previous: 'a', current: 'b', prompt: 'What changed?' });
    expect(result.value).toEqual({ price: { previous: '20', current: '25' } });
    expect(promptText(model.doGenerateCalls[1]!)).toContain('the answer must be a JSON object');
  });

  it('diffTopLevel ignores key order and reports added and removed keys', () => {
    expect(diffTopLevel({ a: { x: 1, y: 2 }, b: 1 }, { b: 1, a: { y: 2, x: 1 } })).toEqual({});
    expect(diffTopLevel({ a: 1 }, { b: 2 })).toEqual({
      a: { previous: 1, current: null },
      b: { previous: null, current: 2 },
    });
  });
});

describe('LlmService.crawlOptions', () => {
  it('keeps the known options, maps maxDepth and shows the site structure', async () => {
    const model = mockModel('{"includePaths":["^/blog/"],"limit":5,"maxDepth":2,"favouriteColour":"blue"}');
    const result = await service(model).crawlOptions({
      url: 'https://example.test',
      prompt: 'blog posts only, 5 pages',
      siteUrls: ['https://example.test/blog/a', 'https://example.test/about'],
    });
    expect(result.value).toEqual({ includePaths: ['^/blog/'], limit: 5, maxDiscoveryDepth: 2 });
    const text = promptText(model.doGenerateCalls[0]!);
    expect(text).toContain('WEBSITE STRUCTURE');
    expect(text).toContain('https://example.test/about');
  });

  it('repairs an invalid regular expression', async () => {
    const model = mockModel('{"includePaths":["^/blog/("]}', '{"includePaths":["^/blog/"]}');
    const result = await service(model).crawlOptions({ url: 'https://example.test', prompt: 'blog' });
    expect(result.value).toEqual({ includePaths: ['^/blog/'] });
    expect(promptText(model.doGenerateCalls[1]!)).toContain('invalid regular expression');
  });
});

describe('resolveLlmOptions', () => {
  it('accepts a bare model or settings and checks them', () => {
    const model = mockModel();
    expect(resolveLlmOptions(model)).toMatchObject({
      model,
      maxInputTokens: 16_000,
      temperature: 0,
      maxRetries: 2,
      concurrency: 4,
    });
    expect(resolveLlmOptions({ model, maxInputTokens: 500 })?.maxInputTokens).toBe(500);
    expect(() => resolveLlmOptions({ model, maxInputTokens: 0 })).toThrow(TypeError);
    expect(resolveLlmOptions(undefined)).toBeUndefined();
  });
});
