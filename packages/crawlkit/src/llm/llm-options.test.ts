import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';

import { Crawlkit } from '../crawlkit.js';
import type { LlmOptions } from './llm-options.js';

describe('new Crawlkit({ llm })', () => {
  it("refuses a server's address (crawlkit.config.json's llm), saying how to make the model it takes", () => {
    const llm = { model: 'qwen3', baseUrl: 'http://127.0.0.1:11434/v1' } as unknown as LlmOptions;
    expect(() => new Crawlkit({ store: 'memory', llm })).toThrow(
      "Invalid options of new Crawlkit(): `llm.baseUrl`: `llm` takes an AI SDK model, not a server's address " +
        '(`baseUrl` and `apiKey` are settings of crawlkit.config.json, which the commands read). For an ' +
        'OpenAI-compatible server: `llm: createOpenAICompatible({ name: "local", baseURL: ' +
        '"http://127.0.0.1:11434/v1", supportsStructuredOutputs: true }).chatModel("qwen3")`',
    );
    const withKey = { model: new MockLanguageModelV4(), apiKey: 'sk-x' } as unknown as LlmOptions;
    expect(() => new Crawlkit({ store: 'memory', llm: withKey })).toThrow(/`llm.apiKey`: `llm` takes an AI SDK model/);
  });

  it('still names a misspelt setting as such', () => {
    const llm = { model: new MockLanguageModelV4(), concurency: 2 } as unknown as LlmOptions;
    expect(() => new Crawlkit({ store: 'memory', llm })).toThrow(
      'unknown option `llm.concurency` (check the spelling)',
    );
  });
});
