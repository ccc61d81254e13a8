/**
 * The settings of `crawlkit serve`, from three places: flags, environment variables (crawlkit's and Firecrawl
 * self-host's own: `OPENAI_BASE_URL`, `OPENAI_API_KEY`, `MODEL_NAME`, `OLLAMA_BASE_URL`,
 * `SELF_HOSTED_WEBHOOK_HMAC_SECRET`, `PROXY_SERVER`), and a config file (`crawlkit.config.json` in the working
 * directory, or `--config`/`CRAWLKIT_CONFIG`). A flag wins over the environment, which wins over the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { optionIssuesMessage } from '@crawlkit/options';
import { z } from 'zod';

import { searchProviderSchema } from '../search/options.js';
import { CONFIG_FILE } from './config-file.js';
import { CliError } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { API_KEY_RULE } from './listen-flags.js';
import { OPENAI_DEFAULT_MODEL } from './model-flags.js';
import { proxyFromEnv } from './proxy-env.js';

const corsSchema = z.union([z.literal('loopback'), z.literal('*'), z.literal(false), z.array(z.string().url()).min(1)]);

const llmFileSchema = z.strictObject({
  /** An OpenAI-compatible API: `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1` (Ollama), llama.cpp... */
  baseUrl: z.string().url().optional(),
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  /** Whether the server takes `response_format: json_schema` (OpenAI, Ollama, llama.cpp do). @default true */
  structuredOutputs: z.boolean().optional(),
  maxInputTokens: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  temperature: z.number().optional(),
  timeoutMs: z.number().int().positive().optional(),
  concurrency: z.number().int().positive().optional(),
});

const proxyListSchema = z.array(z.string().url());

/** `crawlkit.config.json`. Every field is optional. */
export const serveFileSchema = z.strictObject({
  port: z.number().int().min(0).max(65_535).optional(),
  host: z.string().min(1).optional(),
  apiKeys: z.array(z.string().regex(/^\S+$/, API_KEY_RULE)).optional(),
  keysShareJobs: z.boolean().optional(),
  creditLimit: z.number().int().min(0).optional(),
  queueLimit: z.number().int().positive().optional(),
  bodyLimit: z.number().int().positive().optional(),
  bodyTimeoutMs: z.number().int().positive().optional(),
  parseFileLimit: z.number().int().positive().optional(),
  /** Time to extract a page or convert a document (`--extraction-budget`). @default 10000 */
  extractionBudgetMs: z.number().int().positive().optional(),
  /** How long a crawl or map waits for robots.txt (`--robots-timeout`). @default 10000 */
  robotsTimeoutMs: z.number().int().positive().optional(),
  /** Room in MiB the store must keep for `/ready` to answer ready (`--ready-min-free`; 0: no check). @default 64 */
  readyMinFreeMb: z.number().int().min(0).optional(),
  /**
   * On SIGTERM, how long requests in progress may finish before they are aborted (`--close-timeout`).
   * @default 30000
   */
  closeTimeoutMs: z.number().int().min(0).optional(),
  /** How long a job's results stay after it ends (`--job-ttl`), then deleted. @default 86400000 (24 h) */
  jobResultTtlMs: z.number().int().positive().optional(),
  /** How often the server looks for jobs another process on the store left (`--resume-scan`). @default 10000 */
  resumeScanMs: z.number().int().positive().optional(),
  cors: corsSchema.optional(),
  /** The address clients reach the server at behind a reverse proxy (`--public-url`): the base of job URLs. */
  publicUrl: z.string().min(1).optional(),
  /** Whose `X-Forwarded-Proto`/`-Host` to believe (`--trust-proxy`): `true`, or addresses and CIDR ranges. */
  trustProxy: z.union([z.boolean(), z.array(z.string().min(1))]).optional(),
  /** `strict`, or a `UrlPolicy` object; the default is strict on any interface but loopback. */
  urlPolicy: z.union([z.literal('strict'), z.record(z.string(), z.unknown())]).optional(),
  webhookSecret: z.string().min(1).optional(),
  /**
   * How webhook events are delivered (the engine's `webhooks` but its secret, which is `webhookSecret`): `timeoutMs`,
   * `closeTimeoutMs`, `maxAttempts`, `retryDelayMs`, `maxRetryDelayMs`.
   * @default 10 s per attempt, 2 s at close, 22 attempts from 1 s doubling to 30 s
   */
  webhooks: z
    .strictObject({
      timeoutMs: z.number().int().positive().optional(),
      closeTimeoutMs: z.number().int().nonnegative().optional(),
      maxAttempts: z.number().int().positive().optional(),
      retryDelayMs: z.number().int().positive().optional(),
      maxRetryDelayMs: z.number().int().positive().optional(),
    })
    .optional(),
  proxies: z
    .strictObject({
      basic: proxyListSchema.optional(),
      stealth: proxyListSchema.optional(),
      byCountry: z.record(z.string(), proxyListSchema).optional(),
    })
    .optional(),
  llm: llmFileSchema.optional(),
  /**
   * The web search provider of `/v2/search`, `crawlkit search` and `crawlkit mcp`: `{ kind: 'searxng', url }` or
   * `{ kind: 'brave', apiKey }`. @default none (search answers from the stored pages)
   */
  searchProvider: searchProviderSchema.optional(),
  /**
   * A distributed deployment's Redis (`--redis`, `CRAWLKIT_REDIS_URL`): jobs live there and `crawlkit worker`s run
   * their pages; `allowEviction` goes on with a `maxmemory-policy` that evicts keys (`--redis-allow-eviction`);
   * `searchIndex: false` keeps no search index in Redis (`--no-redis-search-index`), as every worker must.
   * @default none (the store directory, jobs run in `serve`)
   */
  redis: z
    .strictObject({
      url: z.string().min(1),
      prefix: z.string().min(1).optional(),
      allowEviction: z.boolean().optional(),
      searchIndex: z.boolean().optional(),
    })
    .optional(),
  /** The engine's `browser` settings (`executablePath`, `args`...), checked by the engine. */
  browser: z.record(z.string(), z.unknown()).optional(),
  /**
   * The engine's `http` settings (`limits` such as `maxBodyBytes`, `userAgent`, `connections`), checked by the engine.
   * The URL policy is the file's `urlPolicy`.
   */
  http: z.record(z.string(), z.unknown()).optional(),
  /** The engine's extraction `workers` (`size`, `maxMemoryMb` as `--worker-memory`), checked by the engine. */
  workers: z.record(z.string(), z.unknown()).optional(),
});

export type ServeFile = z.output<typeof serveFileSchema>;
export type LlmSettings = z.output<typeof llmFileSchema> & { baseUrl: string; model: string };

/** The flags of `serve` this module reads. */
export interface ServeConfigFlags {
  config?: string;
  model?: string;
  modelBaseUrl?: string;
  webhookSecret?: string;
  proxy?: string[];
  cors?: string;
  publicUrl?: string;
  trustProxy?: string;
}

/**
 * Reads the config file: `--config` (which must exist), else `CRAWLKIT_CONFIG`, else `crawlkit.config.json` in `cwd`
 * when there is one. Returns `{}` without a file.
 */
export function readServeFile(flags: ServeConfigFlags, env: NodeJS.ProcessEnv, cwd: string): ServeFile {
  const named = flags.config ?? env.CRAWLKIT_CONFIG;
  const path = resolve(cwd, named ?? CONFIG_FILE);
  if (named === undefined && !existsSync(path)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`Cannot read the config file ${path}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = serveFileSchema.safeParse(value);
  if (!parsed.success) throw new CliError(optionIssuesMessage(path, value, parsed.error.issues));
  return parsed.data;
}

const OPENAI = 'https://api.openai.com/v1';

/**
 * The engine's model (`serve`'s, with its settings file; a command's that runs pages, without), or undefined
 * without one. The base URL: `--model-base-url`, else
 * `OPENAI_BASE_URL`, else `OLLAMA_BASE_URL` (its OpenAI-compatible `/v1`), else the file's `llm.baseUrl`, else the
 * OpenAI API when `OPENAI_API_KEY` is set. The model: `--model`, else `MODEL_NAME`, else the file's `llm.model`, else
 * `gpt-4o-mini` on the OpenAI API (a self-hosted server needs one named).
 */
export function resolveLlmSettings(
  flags: Pick<ServeConfigFlags, 'model' | 'modelBaseUrl'>,
  env: NodeJS.ProcessEnv,
  file?: ServeFile,
): LlmSettings | undefined {
  // An empty variable (`export OPENAI_BASE_URL=`) is no setting.
  env = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const ollama = env.OLLAMA_BASE_URL ? `${env.OLLAMA_BASE_URL.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1` : undefined;
  const baseUrl =
    flags.modelBaseUrl ??
    env.OPENAI_BASE_URL ??
    ollama ??
    file?.llm?.baseUrl ??
    (env.OPENAI_API_KEY ? OPENAI : undefined);
  if (baseUrl === undefined) return undefined;
  const model =
    flags.model ?? env.MODEL_NAME ?? file?.llm?.model ?? (baseUrl === OPENAI ? OPENAI_DEFAULT_MODEL : undefined);
  if (model === undefined) {
    const where = file ? `, or llm.model in ${CONFIG_FILE}` : '';
    throw new CliError(`A language model server is set (${baseUrl}) but no model: set MODEL_NAME or --model${where}.`);
  }
  const apiKey =
    env.OPENAI_API_KEY ?? file?.llm?.apiKey ?? (ollama !== undefined && baseUrl === ollama ? 'ollama' : undefined);
  return { ...file?.llm, baseUrl, model, ...(apiKey !== undefined ? { apiKey } : {}) };
}

/**
 * The proxies: `--proxy` (repeatable) as the basic list, else Firecrawl's `PROXY_SERVER` (with `PROXY_USERNAME` and
 * `PROXY_PASSWORD`), else the file's `proxies`.
 */
export function resolveProxies(flags: ServeConfigFlags, env: NodeJS.ProcessEnv, file: ServeFile): ServeFile['proxies'] {
  if (flags.proxy?.length) return { ...file.proxies, basic: flags.proxy };
  const proxy = proxyFromEnv(env);
  if (proxy) return { ...file.proxies, basic: [proxy] };
  return file.proxies;
}

/** `--cors`: `loopback`, `*`, `off`, or a comma-separated list of origins; else `CRAWLKIT_CORS`, else the file. */
export function resolveCors(flags: ServeConfigFlags, env: NodeJS.ProcessEnv, file: ServeFile): ServeFile['cors'] {
  const raw = flags.cors ?? env.CRAWLKIT_CORS;
  if (raw === undefined) return file.cors;
  if (raw === 'loopback' || raw === '*') return raw;
  if (raw === 'off' || raw === 'false') return false;
  return raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
}

/**
 * Where serve is reached behind a reverse proxy: `--public-url`, else `CRAWLKIT_PUBLIC_URL`, else the file's
 * `publicUrl`; `--trust-proxy` (`all`, `off`, or comma-separated addresses and ranges), else `CRAWLKIT_TRUST_PROXY`,
 * else the file's `trustProxy`. The server checks the values.
 */
export function resolveProxyAddressing(
  flags: ServeConfigFlags,
  env: NodeJS.ProcessEnv,
  file: ServeFile,
): { publicUrl?: string; trustProxy?: boolean | string[] } {
  const publicUrl = flags.publicUrl ?? (env.CRAWLKIT_PUBLIC_URL || undefined) ?? file.publicUrl;
  const raw = flags.trustProxy ?? (env.CRAWLKIT_TRUST_PROXY || undefined);
  let trustProxy = file.trustProxy;
  if (raw !== undefined) {
    const word = raw.trim().toLowerCase();
    if (word === 'all' || word === 'true') trustProxy = true;
    else if (word === 'off' || word === 'false') trustProxy = false;
    else
      trustProxy = raw
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
  }
  return {
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    ...(trustProxy !== undefined ? { trustProxy } : {}),
  };
}

/**
 * Where `serve` listens: `--port` and `--host`, else `CRAWLKIT_PORT` and `CRAWLKIT_HOST`, else the file's `port` and
 * `host`, else Firecrawl self-host's `PORT` and `HOST` (what its compose file and container platforms set: generic
 * names a shell may export for something else, so the settings file, which names crawlkit, comes before them).
 * `variables` names the environment variables the address came from, for the start's error.
 */
export function resolveListenAddress(
  flags: { port?: string; host?: string },
  env: NodeJS.ProcessEnv,
  file: ServeFile,
): { port?: number; host?: string; variables: string[] } {
  const named = (...names: string[]) => names.find((name) => env[name]?.trim());
  const variables: string[] = [];
  const fromEnv = <T>(name: string | undefined, read: (value: string) => T): T | undefined => {
    if (name === undefined) return undefined;
    variables.push(`${name}=${env[name]!.trim()}`);
    return read(env[name]!.trim());
  };
  const port =
    integerFlag('--port', flags.port, 0) ??
    fromEnv(named('CRAWLKIT_PORT'), (v) => integerFlag('CRAWLKIT_PORT', v, 0)) ??
    file.port ??
    fromEnv(named('PORT'), (v) => integerFlag('PORT', v, 0));
  const host = flags.host ?? fromEnv(named('CRAWLKIT_HOST'), (v) => v) ?? file.host ?? fromEnv(named('HOST'), (v) => v);
  return { ...(port !== undefined ? { port } : {}), ...(host !== undefined ? { host } : {}), variables };
}
