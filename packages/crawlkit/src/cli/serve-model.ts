import type { LlmOptions } from '../llm/llm-options.js';
import { CliError } from './errors.js';
import { readServeFile, resolveLlmSettings, type LlmSettings, type ServeConfigFlags } from './serve-config.js';

/**
 * The engine's model from `serve`'s settings: an OpenAI-compatible chat model (OpenAI, Ollama, llama.cpp, vLLM,
 * LM Studio all speak it) through `@ai-sdk/openai-compatible`, loaded only when a model is configured.
 */
export async function loadServeModel(settings: LlmSettings): Promise<LlmOptions> {
  const { baseUrl, apiKey, model, structuredOutputs, ...tuning } = settings;
  let provider;
  try {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    provider = createOpenAICompatible({
      name: 'crawlkit',
      baseURL: baseUrl,
      ...(apiKey !== undefined ? { apiKey } : {}),
      supportsStructuredOutputs: structuredOutputs ?? true,
    });
  } catch (cause) {
    throw new CliError('The model needs the @ai-sdk/openai-compatible package: npm install @ai-sdk/openai-compatible', {
      cause,
    });
  }
  return { model: provider.chatModel(model), ...tuning };
}

/**
 * The engine's model for a command that runs pages, read as `serve` reads it (the flags, then `OPENAI_BASE_URL`,
 * `OLLAMA_BASE_URL`, `MODEL_NAME` and `OPENAI_API_KEY`, then the config file's `llm`, whose tuning such as
 * `maxInputTokens` has no flag), or `undefined` without one: formats that need a model are then refused with what to
 * set, and summaries are extractive.
 */
export async function commandModel(
  flags: Pick<ServeConfigFlags, 'model' | 'modelBaseUrl' | 'config'>,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<LlmOptions | undefined> {
  const settings = resolveLlmSettings(flags, env, readServeFile(flags, env, cwd));
  return settings && loadServeModel(settings);
}
