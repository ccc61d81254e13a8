import type { Command } from 'commander';

import type { LlmOptions } from '../llm/llm-options.js';
import { resolveLlmSettings, type ServeConfigFlags } from './serve-config.js';
import { loadServeModel } from './serve-model.js';

/** Help of `--model`, shared by the commands that run pages and those that answer callers (`serve`, `mcp`). */
export const MODEL_FLAG_HELP = 'language model for json, summary, question, crawl prompt; env MODEL_NAME';
export const MODEL_BASE_URL_FLAG_HELP =
  'OpenAI-compatible API of the model; env OPENAI_BASE_URL or OLLAMA_BASE_URL (key: env OPENAI_API_KEY)';

/** `--model` and `--model-base-url`, on a command that runs pages (`scrape`, `crawl`, `batch`, ...). */
export function addModelFlags(command: Command): Command {
  return command.option('--model <name>', MODEL_FLAG_HELP).option('--model-base-url <url>', MODEL_BASE_URL_FLAG_HELP);
}

/**
 * The engine's model for a command that runs pages, read as `serve` reads it (the flags, then `OPENAI_BASE_URL`,
 * `OLLAMA_BASE_URL`, `MODEL_NAME` and `OPENAI_API_KEY`), or `undefined` without one: formats that need a model are
 * then refused with what to set, and summaries are extractive.
 */
export async function commandModel(
  flags: Pick<ServeConfigFlags, 'model' | 'modelBaseUrl'>,
  env: NodeJS.ProcessEnv,
): Promise<LlmOptions | undefined> {
  const settings = resolveLlmSettings(flags, env);
  return settings && loadServeModel(settings);
}
