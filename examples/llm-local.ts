/**
 * `json` and `summary` with a local OpenAI-compatible model server (llama.cpp, Ollama, vLLM, LM Studio…).
 *
 *   pnpm build
 *   pnpm exec node examples/llm-local.ts                                   # offline: bundled fixture site + fixture model
 *   pnpm exec node examples/llm-local.ts http://127.0.0.1:11434/v1 qwen2.5:7b https://example.com   # Ollama
 *   pnpm exec node examples/llm-local.ts http://127.0.0.1:8080/v1 local https://example.com         # llama-server
 *
 * Arguments: the server's OpenAI-compatible base URL, the model name, the page to scrape.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Crawlkit } from 'crawlkit';

import { startLlmServer } from '../fixtures/llm-server.ts';
import { startFixtureServer } from '../fixtures/server.ts';

const [baseURLArg, modelArg, urlArg] = process.argv.slice(2);

// Without arguments everything runs on 127.0.0.1: the fixture site and a deterministic fixture model.
const fixtureModel = baseURLArg ? undefined : await startLlmServer();
const fixtureSite = urlArg ? undefined : await startFixtureServer();

const local = createOpenAICompatible({
  name: 'local',
  baseURL: baseURLArg ?? fixtureModel!.url,
  // llama.cpp, Ollama and vLLM accept `response_format: json_schema`: the schema is enforced while decoding.
  supportsStructuredOutputs: true,
});

const ck = new Crawlkit({
  store: 'memory',
  // A bare model works too: `llm: local.chatModel('…')`. Local models on a CPU are slow: give pages time.
  llm: { model: local.chatModel(modelArg ?? 'fixture-model'), maxInputTokens: 8000 },
  timeoutMs: 180_000,
});

const url = urlArg ?? `${fixtureSite!.url}/articles/first-post.html`;
const result = await ck.scrape({
  url,
  formats: [
    'summary',
    {
      type: 'json',
      prompt: 'The title and the author of the article.',
      schema: {
        type: 'object',
        properties: { title: { type: 'string' }, author: { type: ['string', 'null'] } },
        required: ['title', 'author'],
      },
    },
  ],
});

if (result.success) {
  console.log('summary:', result.data.summary);
  console.log('json:', JSON.stringify(result.data.json, null, 2));
  console.log('tokens:', result.data.metadata.llmUsage, 'credits:', result.data.metadata.creditsUsed);
  if (result.data.warning) console.log('warning:', result.data.warning);
} else {
  console.error(`${result.code}: ${result.error}`);
  process.exitCode = 1;
}

await ck.close();
await fixtureModel?.close();
await fixtureSite?.close();
