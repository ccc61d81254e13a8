/**
 * The model of the commands that run pages: `--model` and `--model-base-url` (or the environment `serve` reads) give
 * `scrape`, `crawl` and `batch` the json and summary formats and a crawl's prompt, against a local OpenAI-compatible
 * server; `--schema` and `--json-prompt` shape the json format; without a model the message says what to set.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startLlmServer, type LlmServer } from '../fixtures/llm-server.ts';
import { runCli } from './cli-helpers.ts';
import { useCliSite } from './helpers/cli-site.ts';

const site = useCliSite();
let llm: LlmServer;

beforeAll(async () => {
  llm = await startLlmServer();
});

afterAll(async () => {
  await llm?.close();
});

/** The model variables of the machine's own, unset. */
const NO_MODEL = {
  OPENAI_BASE_URL: undefined,
  OPENAI_API_KEY: undefined,
  OLLAMA_BASE_URL: undefined,
  MODEL_NAME: undefined,
};

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--store', site.store], { cwd: site.dir, env: { ...NO_MODEL, ...env } });

const TITLE_SCHEMA = JSON.stringify({
  type: 'object',
  properties: { title: { type: 'string' } },
  required: ['title'],
});

describe('crawlkit commands with a model', { timeout: 120_000 }, () => {
  it('scrape --format json --schema extracts with the model named by --model and --model-base-url', async () => {
    llm.reset();
    const page = `${site.server.url}/articles/first-post.html`;
    const model = ['--model', 'cli-test-model', '--model-base-url', llm.url];
    const result = await cli(['scrape', page, '--format', 'json', '--schema', TITLE_SCHEMA, ...model]);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { title: string };
    expect(json.title).toMatch(/\S/);
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.body.model).toBe('cli-test-model');

    // A prompt alone, beside markdown: the page as JSON with both fields.
    const both = await cli(['scrape', page, '-f', 'markdown,json', '--json-prompt', 'the title', ...model]);
    expect(both.code, both.stderr).toBe(0);
    expect(JSON.parse(both.stdout)).toMatchObject({ markdown: expect.any(String), json: expect.any(Object) });
    expect(llm.requests[1]!.body.messages.map((m) => JSON.stringify(m.content)).join('\n')).toContain('the title');
  });

  it('reads the model from the environment as serve does, for a summary and a crawl prompt', async () => {
    llm.reset();
    const env = { OPENAI_BASE_URL: llm.url, MODEL_NAME: 'env-model' };
    const summary = await cli(['scrape', `${site.server.url}/articles/first-post.html`, '-f', 'summary'], env);
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.stdout).toMatch(/^Summary: /);
    expect(llm.requests.map((r) => r.body.model)).toEqual(['env-model']);

    const crawl = await cli(['crawl', `${site.server.url}/`, '--prompt', 'only the articles', '--limit', '3'], env);
    expect(crawl.code, crawl.stderr).toBe(0);
    expect(llm.requests).toHaveLength(2);
    expect(JSON.stringify(llm.requests[1]!.body)).toContain('includePaths');
  });

  it('without a model, or with a schema but no json format, says what to give', async () => {
    const page = `${site.server.url}/articles/first-post.html`;
    const none = await cli(['scrape', page, '--format', 'json', '--schema', TITLE_SCHEMA]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('The json format needs a language model');
    expect(none.stderr).toContain('`--model` and `--model-base-url`');

    const noFormat = await cli(['scrape', page, '--schema', TITLE_SCHEMA, '--model', 'm', '--model-base-url', llm.url]);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toBe(
      'crawlkit: --schema and --json-prompt describe the json format: add it to --format (e.g. --format json, or markdown,json) (CLI_USAGE)\n',
    );

    const badSchema = await cli(['scrape', page, '-f', 'json', '--schema', '{title', '--model', 'm']);
    expect(badSchema.code).toBe(2);
    expect(badSchema.stderr).toContain('--schema is not valid JSON');

    const noName = await cli(['scrape', page, '-f', 'json', '--json-prompt', 'x', '--model-base-url', llm.url]);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain(
      `A language model server is set (${llm.url}) but no model: set MODEL_NAME or --model, or llm.model in crawlkit.config.json.`,
    );
  });

  it('takes the model settings of the config file serve reads (llm.maxInputTokens, maxOutputTokens)', async () => {
    llm.reset();
    const config = join(site.dir, 'model-settings.json');
    writeFileSync(config, JSON.stringify({ llm: { maxInputTokens: 50, maxOutputTokens: 7 } }));
    const page = `${site.server.url}/articles/first-post.html`;
    const env = { OPENAI_BASE_URL: llm.url, MODEL_NAME: 'env-model', CRAWLKIT_CONFIG: config };
    const result = await cli(['scrape', page, '-f', 'json', '--json-prompt', 'the title'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(llm.requests[0]!.body.max_tokens).toBe(7);
    expect(result.stderr).toContain('the input has been automatically trimmed');
  });
});
