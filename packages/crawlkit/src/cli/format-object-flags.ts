import type { Command } from 'commander';

import { readJsonArgument } from './file-arguments.js';
import { CHANGE_TRACKING_FLAGS, withChangeTracking } from './change-tracking-flags.js';
import { CliError } from './errors.js';

/**
 * Flags that turn a format name of `--format` into its object: the json format's (`--format json --schema
 * @invoice.json`), the full-page screenshot's, in place of `screenshot` or added (as firecrawl-cli's flag), and
 * changeTracking's (`--format markdown,changeTracking --change-modes git-diff --change-tag daily`).
 */
export const FORMAT_OBJECT_FLAGS = [
  { flags: '--schema <json>', description: 'JSON schema of the json format, inline or @file.json (needs a model)' },
  { flags: '--json-prompt <text>', description: 'what the json format extracts, in words (needs a model)' },
  { flags: '--full-page-screenshot', description: 'a screenshot of the whole page, not only the viewport' },
  ...CHANGE_TRACKING_FLAGS,
];

/**
 * The formats with every format-object flag given on the command line applied, or undefined when none was given.
 * `formats` is the body's list (a `--body`'s objects are kept and completed).
 */
export function withFormatObjectFlags(command: Command, formats: unknown[]): unknown[] | undefined {
  const given = (name: string) =>
    command.getOptionValueSource(name) === 'cli' ? String(command.opts<Record<string, unknown>>()[name]) : undefined;
  let changed = withJsonFormat(formats, given('schema'), given('jsonPrompt')) ?? formats;
  changed = withChangeTracking(changed, given('changeModes'), given('changeTag')) ?? changed;
  if (given('fullPageScreenshot') !== undefined) changed = withFullPageScreenshot(changed);
  // Each step copies the list it changes: the same list back means no flag was given.
  return changed === formats ? undefined : changed;
}

/** `--schema` and `--json-prompt`: the `json` of the formats becomes `{ type: 'json', schema, prompt }`. */
function withJsonFormat(
  formats: unknown[],
  schema: string | undefined,
  prompt: string | undefined,
): unknown[] | undefined {
  if (schema === undefined && prompt === undefined) return undefined;
  const at = formats.indexOf('json');
  if (at < 0) {
    throw new CliError(
      '--schema and --json-prompt describe the json format: add it to --format (e.g. --format json, or markdown,json)',
    );
  }
  const changed = [...formats];
  changed[at] = {
    type: 'json',
    ...(schema !== undefined ? { schema: readJsonArgument(schema, '--schema') } : {}),
    ...(prompt !== undefined ? { prompt } : {}),
  };
  return changed;
}

/** `--full-page-screenshot`: `{ type: 'screenshot', fullPage: true }` in place of `screenshot`, else added. */
function withFullPageScreenshot(formats: unknown[]): unknown[] {
  const at = formats.findIndex(
    (f) =>
      f === 'screenshot' || (typeof f === 'object' && f !== null && (f as { type?: unknown }).type === 'screenshot'),
  );
  const existing = at >= 0 && typeof formats[at] === 'object' ? (formats[at] as object) : {};
  const screenshot = { ...existing, type: 'screenshot', fullPage: true };
  const changed = [...formats];
  if (at >= 0) changed[at] = screenshot;
  else changed.push(screenshot);
  return changed;
}
