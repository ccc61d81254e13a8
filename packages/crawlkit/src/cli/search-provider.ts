/**
 * The web search provider of `serve`, `search` and `mcp`: `--searxng-url` (or `SEARXNG_ENDPOINT`, the variable
 * Firecrawl's self-host reads), else `--brave-api-key` (or `BRAVE_API_KEY`), else the config file's `searchProvider`;
 * none: search answers from the store.
 */
import type { Command } from 'commander';

import type { SearchProviderOptions } from '../search/options.js';
import type { ServeFile } from './serve-config.js';

export interface ProviderFlags {
  searxngUrl?: string;
  braveApiKey?: string;
}

export function providerFromFlags(
  flags: ProviderFlags,
  env: NodeJS.ProcessEnv = process.env,
  file: ServeFile = {},
): SearchProviderOptions | undefined {
  const searxng = flags.searxngUrl ?? env.SEARXNG_ENDPOINT;
  if (searxng) {
    return {
      kind: 'searxng',
      url: searxng,
      ...(env.SEARXNG_ENGINES ? { engines: env.SEARXNG_ENGINES } : {}),
      ...(env.SEARXNG_LANGUAGE ? { language: env.SEARXNG_LANGUAGE } : {}),
    };
  }
  const brave = flags.braveApiKey ?? env.BRAVE_API_KEY;
  return brave ? { kind: 'brave', apiKey: brave } : file.searchProvider;
}

/** Adds the provider flags to a command. */
export function addProviderFlags(command: Command): Command {
  return command
    .option(
      '--searxng-url <url>',
      'SearXNG instance for web search (its JSON API; default: none); env SEARXNG_ENDPOINT',
    )
    .option(
      '--brave-api-key <key>',
      'Brave Search API key for web search; env BRAVE_API_KEY, which ps does not show (default: none)',
    );
}
