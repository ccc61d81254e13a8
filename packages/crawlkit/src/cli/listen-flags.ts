import { readFileSync } from 'node:fs';

import type { ListenerOptions } from '@crawlkit/options';
import { LISTENER_DEFAULTS } from '@crawlkit/options/listener-options';
import type { Command } from 'commander';

import type { Crawlkit } from '../crawlkit.js';
import type { CommandContext } from './context.js';
import { CONFIG_FILE } from './config-file.js';
import { CliError } from './errors.js';
import { integerFlag } from './integer-flag.js';
import { MODEL_BASE_URL_FLAG_HELP, MODEL_FLAG_HELP } from './model-flags.js';
import { addProviderFlags, type ProviderFlags } from './search-provider.js';
import type { ServeConfigFlags, ServeFile } from './serve-config.js';

/**
 * The flags of the commands that answer callers (`serve`, `mcp --http`): where they listen, who may call, within which
 * limits, and the engine settings they read like `serve` (model, webhook secret, proxies, search provider).
 */
export interface ListenFlags extends ServeConfigFlags, ProviderFlags {
  port?: string;
  host?: string;
  apiKey?: string[];
  keysShareJobs?: boolean;
  allowPrivateNetworks?: boolean;
  creditLimit?: string;
  queueLimit?: string;
  bodyLimit?: string;
}

/** What the commands hand their listener (`@crawlkit/server`'s `startServer`, `@crawlkit/mcp`'s `startMcpHttp`). */
export interface ListenOptions extends ListenerOptions {
  crawlkit: Crawlkit;
}

export interface ListenFlagsUsage {
  /** The port when none is given. */
  port: number;
  /** Said before the help of the flags that apply to HTTP only (`mcp`: 'with --http'). */
  httpOnly?: string;
  /** Whether `CRAWLKIT_PORT`/`PORT` and `CRAWLKIT_HOST`/`HOST` are read (`serve`). @default false */
  addressFromEnv?: boolean;
}

/** Adds the shared flags to `command` (see `ListenFlags`). */
export function addListenFlags(command: Command, usage: ListenFlagsUsage): Command {
  const http = (help: string) => (usage.httpOnly ? `${usage.httpOnly}: ${help}` : help);
  const repeat = (value: string, previous: string[] = []) => [...previous, value];
  command
    .option(
      '--port <port>',
      http(
        `TCP port; 0 picks a free one (default ${usage.port})${usage.addressFromEnv ? '; env CRAWLKIT_PORT or PORT' : ''}`,
      ),
    )
    .option(
      '--host <host>',
      http(
        `interface to listen on (default ${LISTENER_DEFAULTS.host}; any other needs an API key)${usage.addressFromEnv ? '; env CRAWLKIT_HOST or HOST' : ''}`,
      ),
    )
    .option(
      '--api-key <key>',
      http(
        'accepted key (Authorization: Bearer <key>); repeatable; env CRAWLKIT_API_KEY (comma-separated) or CRAWLKIT_API_KEY_FILE (a file of keys), which ps does not show as it shows a flag (default: none, loopback only)',
      ),
      repeat,
    )
    .option('--keys-share-jobs', http('every API key sees every job (default: each key sees only the jobs it started)'))
    .option('--config <file>', `settings file (default ./${CONFIG_FILE} when present); env CRAWLKIT_CONFIG`)
    .option('--model <name>', MODEL_FLAG_HELP)
    .option('--model-base-url <url>', MODEL_BASE_URL_FLAG_HELP)
    .option(
      '--webhook-secret <secret>',
      'sign webhooks (X-Firecrawl-Signature); env CRAWLKIT_WEBHOOK_SECRET or SELF_HOSTED_WEBHOOK_HMAC_SECRET, which ps does not show (default: unsigned)',
    )
    .option(
      '--proxy <url>',
      'proxy for page fetches (http://user:pass@host:port); repeatable; env PROXY_SERVER, which ps does not show (default: none)',
      repeat,
    )
    .option(
      '--allow-private-networks',
      'beyond loopback, keep the allow-all URL policy instead of strict (default: strict beyond loopback)',
    )
    .option('--cors <origins>', http('browser origins allowed: loopback (default), *, off, or a comma-separated list'))
    .option(
      '--credit-limit <n>',
      'credits each API key (or a keyless server) may spend, then refused (default: no limit)',
    )
    .option(
      '--queue-limit <n>',
      `scrape/map/search calls in progress at once per API key, then refused (default ${LISTENER_DEFAULTS.queueLimit})`,
    )
    .option('--body-limit <bytes>', http(`largest request body, then 413 (default ${LISTENER_DEFAULTS.bodyLimit})`));
  return addProviderFlags(command);
}

/** The limits given by the flags, else by the settings file. */
export function listenLimits(
  flags: ListenFlags,
  file: ServeFile,
): { creditLimit?: number; queueLimit?: number; bodyLimit?: number } {
  const creditLimit = integerFlag('--credit-limit', flags.creditLimit, 0) ?? file.creditLimit;
  const queueLimit = integerFlag('--queue-limit', flags.queueLimit) ?? file.queueLimit;
  const bodyLimit = integerFlag('--body-limit', flags.bodyLimit) ?? file.bodyLimit;
  return {
    ...(creditLimit !== undefined ? { creditLimit } : {}),
    ...(queueLimit !== undefined ? { queueLimit } : {}),
    ...(bodyLimit !== undefined ? { bodyLimit } : {}),
  };
}

/**
 * What an API key is, wherever it is given (the flag, the variable, the key file, the settings file's schema). Here,
 * not in serve-config.ts, which the help of every command would then load (zod).
 */
export const API_KEY_RULE = 'a key is one word, with no spaces';

/**
 * The keys in `text`, separated by commas or line breaks. A key file (`comments`) also takes `#` comment lines, as
 * many secret files have. `source` names where they come from in the error a key with a space in it gets: the
 * server's own check sees only the merged list.
 */
function keysIn(text: string, source: string, comments = false): string[] {
  const keys: string[] = [];
  for (const [index, line] of text.split(/\r?\n|\r/).entries()) {
    if (comments && line.trimStart().startsWith('#')) continue;
    for (const key of line.split(',').map((k) => k.trim())) {
      if (key === '') continue;
      if (/\s/.test(key)) {
        throw new CliError(
          `${source}, line ${index + 1}: ${API_KEY_RULE} (write one key a line, or comma-separated` +
            `${comments ? '; a line starting with # is a comment' : ''})`,
        );
      }
      keys.push(key);
    }
  }
  return keys;
}

/** The keys of `--api-key`, each checked here so that a bad one is blamed on the flag (and which one it is). */
function flagKeys(given: readonly string[]): string[] {
  for (const [index, key] of given.entries()) {
    if (key.trim() === '' || /\s/.test(key)) {
      const which = given.length > 1 ? ` (the ${ordinal(index + 1)} given)` : '';
      throw new CliError(
        `--api-key${which}: ${API_KEY_RULE}; got ${key.trim() === '' ? 'an empty one' : JSON.stringify(key)}`,
      );
    }
  }
  return [...given];
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The keys of `--api-key` (repeatable), `CRAWLKIT_API_KEY` (comma-separated; keeps them out of `ps`),
 * `CRAWLKIT_API_KEY_FILE` (a file of keys, one a line or comma-separated, `#` comment lines and blank lines skipped:
 * a Docker or Kubernetes secret, out of the environment too), the settings file (checked by its schema); and
 * `apiKeysSource`, the sources that gave keys, which a request with a wrong key is told (never a key, nor a path: the
 * sender may be anyone who reaches the server).
 * @throws {CliError} when `CRAWLKIT_API_KEY_FILE` names a file that cannot be read or holds no key, or when a key of
 * the flag, the variable or the file is empty or has a space in it, naming that source (and the file's line).
 */
export function apiKeys(
  flags: Pick<ListenFlags, 'apiKey'>,
  file: ServeFile,
): { apiKeys: string[]; apiKeysSource?: string } {
  const path = process.env.CRAWLKIT_API_KEY_FILE;
  let fromFile: string[] = [];
  if (path) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new CliError(`Cannot read the keys of CRAWLKIT_API_KEY_FILE (${path}): ${(error as Error).message}`, {
        cause: error,
      });
    }
    fromFile = keysIn(text, `CRAWLKIT_API_KEY_FILE (${path})`, true);
  }
  // An empty secret would leave a loopback server keyless: the operator meant keys.
  if (path && fromFile.length === 0)
    throw new CliError(`CRAWLKIT_API_KEY_FILE (${path}) holds no key: write one key a line, or comma-separated`);
  const sources: [string[], string][] = [
    [flagKeys(flags.apiKey ?? []), '--api-key'],
    [keysIn(process.env.CRAWLKIT_API_KEY ?? '', 'CRAWLKIT_API_KEY'), 'the CRAWLKIT_API_KEY environment variable'],
    [fromFile, 'the file CRAWLKIT_API_KEY_FILE names'],
    [[...(file.apiKeys ?? [])], '`apiKeys` of the settings file (--config, CRAWLKIT_CONFIG or ./' + CONFIG_FILE + ')'],
  ];
  const given = sources.filter(([keys]) => keys.length > 0);
  return {
    apiKeys: given.flatMap(([keys]) => keys),
    ...(given.length > 0 ? { apiKeysSource: given.map(([, source]) => source).join(' and ') } : {}),
  };
}

/**
 * Waits until the command is told to stop: its context's signal (which the CLI aborts on Ctrl-C and SIGTERM, its one
 * home for signals), or the end of `input` when given (over stdio, the client ends the session by closing our input).
 */
export function untilStopped(ctx: CommandContext, input?: NodeJS.ReadableStream): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      input?.off('end', stop);
      ctx.signal.removeEventListener('abort', stop);
      resolve();
    };
    input?.once('end', stop);
    if (ctx.signal.aborted) stop();
    else ctx.signal.addEventListener('abort', stop, { once: true });
  });
}
