import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { readServeFile, resolveCors, resolveLlmSettings, resolveProxies } from './serve-config.js';
import { resolveWebhookSecret } from './webhook-secret.js';
import { providerFromFlags } from './search-provider.js';

const dir = mkdtempSync(join(tmpdir(), 'ck-serve-config-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveLlmSettings', () => {
  it("reads Firecrawl self-host's variables", () => {
    expect(
      resolveLlmSettings({}, { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1', OPENAI_API_KEY: 'k', MODEL_NAME: 'm' }, {}),
    ).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'k', model: 'm' });
    expect(resolveLlmSettings({}, { OLLAMA_BASE_URL: 'http://127.0.0.1:11434/', MODEL_NAME: 'qwen3' }, {})).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'ollama',
      model: 'qwen3',
    });
    expect(resolveLlmSettings({}, { OPENAI_API_KEY: 'sk' }, {})).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk',
      model: 'gpt-4o-mini',
    });
    expect(resolveLlmSettings({}, {}, {})).toBeUndefined();
    // An exported empty variable is no setting.
    expect(resolveLlmSettings({}, { OPENAI_BASE_URL: '', MODEL_NAME: 'm' })).toBeUndefined();
    expect(
      resolveLlmSettings({}, { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1', OPENAI_API_KEY: '', MODEL_NAME: 'm' }),
    ).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
      model: 'm',
    });
  });

  it('lets a flag win over the environment, and the environment over the file', () => {
    const file = { llm: { baseUrl: 'http://file.example/v1', model: 'file-model', maxInputTokens: 8000 } };
    expect(resolveLlmSettings({}, {}, file)).toMatchObject({ baseUrl: 'http://file.example/v1', model: 'file-model' });
    expect(resolveLlmSettings({}, { MODEL_NAME: 'env-model' }, file)).toMatchObject({
      model: 'env-model',
      maxInputTokens: 8000,
    });
    expect(resolveLlmSettings({ model: 'flag-model' }, { MODEL_NAME: 'env-model' }, file)).toMatchObject({
      model: 'flag-model',
    });
  });

  it('asks for a model name for a self-hosted server', () => {
    expect(() => resolveLlmSettings({}, { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' }, {})).toThrow(
      'set MODEL_NAME or --model, or llm.model in crawlkit.config.json.',
    );
    // A command that runs pages reads no settings file.
    expect(() => resolveLlmSettings({}, { OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1' })).toThrow(
      /set MODEL_NAME or --model\.$/,
    );
  });
});

describe('the other settings', () => {
  it('webhook secret, proxies and CORS from flags, variables or the file', () => {
    expect(resolveWebhookSecret({}, { SELF_HOSTED_WEBHOOK_HMAC_SECRET: 's' }, {})).toBe('s');
    expect(resolveWebhookSecret({ webhookSecret: 'f' }, { CRAWLKIT_WEBHOOK_SECRET: 'e' }, {})).toBe('f');
    expect(
      resolveProxies({}, { PROXY_SERVER: 'proxy.example:3128', PROXY_USERNAME: 'u', PROXY_PASSWORD: 'p' }, {}),
    ).toEqual({ basic: ['http://u:p@proxy.example:3128/'] });
    // Taken as they are: a `%` is a percent sign, not the start of an escape the proxy client would decode.
    expect(
      resolveProxies({}, { PROXY_SERVER: 'proxy.example:3128', PROXY_USERNAME: 'u@corp', PROXY_PASSWORD: 'p@:%z' }, {}),
    ).toEqual({ basic: ['http://u%40corp:p%40%3A%25z@proxy.example:3128/'] });
    expect(
      resolveProxies({ proxy: ['http://a.example:1'] }, {}, { proxies: { stealth: ['http://s.example:1'] } }),
    ).toEqual({ basic: ['http://a.example:1'], stealth: ['http://s.example:1'] });
    expect(resolveCors({ cors: 'off' }, {}, {})).toBe(false);
    expect(resolveCors({ cors: 'https://a.example, https://b.example' }, {}, {})).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(resolveCors({}, {}, { cors: '*' })).toBe('*');
  });

  it('reads crawlkit.config.json from the working directory, and names what is wrong in a file', () => {
    expect(readServeFile({}, {}, dir)).toEqual({});
    writeFileSync(join(dir, 'crawlkit.config.json'), JSON.stringify({ port: 4000, llm: { model: 'm' } }));
    expect(readServeFile({}, {}, dir)).toEqual({ port: 4000, llm: { model: 'm' } });
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ port: 'x' }));
    expect(() => readServeFile({ config: 'bad.json' }, {}, dir)).toThrow(/port/);
    expect(() => readServeFile({ config: 'missing.json' }, {}, dir)).toThrow(/Cannot read the config file/);
  });
});

describe('the web search provider', () => {
  it('from --searxng-url or SEARXNG_ENDPOINT, else --brave-api-key or BRAVE_API_KEY, else the file', () => {
    const file = readServeFileFrom({ searchProvider: { kind: 'brave', apiKey: 'file-key' } });
    expect(providerFromFlags({}, {}, file)).toEqual({ kind: 'brave', apiKey: 'file-key' });
    expect(providerFromFlags({}, { BRAVE_API_KEY: 'env-key' }, file)).toEqual({ kind: 'brave', apiKey: 'env-key' });
    expect(providerFromFlags({}, { SEARXNG_ENDPOINT: 'http://127.0.0.1:8888', SEARXNG_ENGINES: 'bing' }, file)).toEqual(
      { kind: 'searxng', url: 'http://127.0.0.1:8888', engines: 'bing' },
    );
    expect(providerFromFlags({ searxngUrl: 'http://flag.example' }, {}, file)).toMatchObject({
      url: 'http://flag.example',
    });
    expect(providerFromFlags({}, {}, {})).toBeUndefined();
  });

  it('refuses a provider in the file that is not one, naming it', () => {
    expect(() => readServeFileFrom({ searchProvider: { kind: 'searxng' } })).toThrow(/searchProvider/);
  });
});

function readServeFileFrom(value: unknown) {
  const path = join(dir, `provider-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(value));
  return readServeFile({ config: path }, {}, dir);
}
