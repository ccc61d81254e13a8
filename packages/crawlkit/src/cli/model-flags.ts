import type { Command } from 'commander';

/** The model taken on the OpenAI API when none is named (`resolveLlmSettings`); a self-hosted server names one. */
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

/** Help of `--model`, shared by the commands that run pages and those that answer callers (`serve`, `mcp`). */
export const MODEL_FLAG_HELP = `language model for json, summary, question, crawl prompt (default: ${OPENAI_DEFAULT_MODEL} on the OpenAI API, else none: json and prompts refused); env MODEL_NAME`;
export const MODEL_BASE_URL_FLAG_HELP =
  'OpenAI-compatible API of the model; env OPENAI_BASE_URL or OLLAMA_BASE_URL (key: env OPENAI_API_KEY; default: the OpenAI API when that key is set, else none)';

/** `--model` and `--model-base-url`, on a command that runs pages (`scrape`, `crawl`, `batch`, ...). */
export function addModelFlags(command: Command): Command {
  return command.option('--model <name>', MODEL_FLAG_HELP).option('--model-base-url <url>', MODEL_BASE_URL_FLAG_HELP);
}
