import { Option, type Command } from 'commander';

import { toldIssue } from '../v2/told-issue.js';
import type { ErrorResponse } from '../v2/types.js';
import { BODY_FLAGS } from './body-flags.js';

/** Body fields whose flag is not named after them (search's, parse's). */
const ALIASES: Record<string, string> = {
  includeDomains: 'site',
  sources: 'source',
  'parsers.mode': 'pdfMode',
  'parsers.maxPages': 'pdfMaxPages',
};

/** The body path each flag given on the command line set (`location.country` for `--country`), to its long name. */
function givenFlags(command: Command): Map<string, string> {
  const given = new Map<string, string>();
  const fromCli = (option: Option) => command.getOptionValueSource(option.attributeName()) === 'cli';
  for (const { flags } of Object.values(BODY_FLAGS)) {
    for (const flag of flags) {
      const option = new Option(flag.flags);
      if (fromCli(option) && option.long) given.set(flag.key, option.long);
    }
  }
  // Flags that set a field of their own name (`--every`, `--tbs`), or an alias's.
  for (const option of command.options) {
    if (!fromCli(option) || !option.long) continue;
    const field = Object.entries(ALIASES).find(([, name]) => name === option.attributeName())?.[0];
    if (!given.has(field ?? option.attributeName())) given.set(field ?? option.attributeName(), option.long);
  }
  return given;
}

/**
 * The field path of the issue the error's message tells of (`toldIssue`), without array indexes, a schedule's target
 * or `scrapeOptions`.
 */
function toldIssuePath(error: ErrorResponse): string[] {
  const issue = Array.isArray(error.details)
    ? toldIssue(error.details as { code?: unknown; path?: unknown }[])
    : undefined;
  let path = Array.isArray(issue?.path) ? (issue.path as unknown[]) : [];
  // `crawl --every` sends its crawl as a schedule's one target.
  if (path[0] === 'targets' && typeof path[1] === 'number') path = path.slice(2);
  const names = path.filter((p): p is string => typeof p === 'string');
  return names[0] === 'scrapeOptions' ? names.slice(1) : names;
}

/**
 * The command-line flag that set the field an error refuses (`--max-age` for `scrapeOptions.maxAge: Too small`), or
 * undefined: the v2 validation names body fields, a user of the CLI typed flags. Only the field of the issue the
 * message tells of counts: another issue's flag would be blamed for it (`--limit: URL must have a valid top-level
 * domain`).
 */
export function flagOfIssue(error: ErrorResponse, command: Command | undefined): string | undefined {
  if (!command || error.code !== 'BAD_REQUEST') return undefined;
  const path = toldIssuePath(error);
  const given = givenFlags(command);
  for (let length = path.length; length > 0; length--) {
    const flag = given.get(path.slice(0, length).join('.'));
    if (flag) return flag;
  }
  return undefined;
}
