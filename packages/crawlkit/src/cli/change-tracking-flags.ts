import { CliError } from './errors.js';

/** The flags of the changeTracking format object, on the commands that take scrape options. */
export const CHANGE_TRACKING_FLAGS = [
  {
    flags: '--change-modes <list>',
    description:
      'what changeTracking adds to a changed page, comma-separated: git-diff (the diff), json (with --body, a model)',
  },
  { flags: '--change-tag <name>', description: 'the changeTracking history to compare with (one per tag)' },
];

/**
 * `--change-modes` and `--change-tag`: the `changeTracking` of the formats becomes `{ type: 'changeTracking', modes,
 * tag }`, keeping what a `--body` gave it; undefined when neither flag is given. Without them a command-line scrape
 * could say `changed` but not show the diff, nor keep a second history, short of writing a whole `--body`.
 */
export function withChangeTracking(
  formats: unknown[],
  modes: string | undefined,
  tag: string | undefined,
): unknown[] | undefined {
  if (modes === undefined && tag === undefined) return undefined;
  const at = formats.findIndex((f) => f === 'changeTracking' || typeOf(f) === 'changeTracking');
  if (at < 0) {
    throw new CliError(
      '--change-modes and --change-tag describe the changeTracking format: add it to --format ' +
        '(e.g. --format markdown,changeTracking)',
    );
  }
  const existing = typeof formats[at] === 'object' ? (formats[at] as object) : {};
  const changed = [...formats];
  changed[at] = {
    ...existing,
    type: 'changeTracking',
    ...(modes !== undefined
      ? {
          modes: modes
            .split(',')
            .map((m) => m.trim())
            .filter(Boolean),
        }
      : {}),
    ...(tag !== undefined ? { tag } : {}),
  };
  return changed;
}

const typeOf = (format: unknown) =>
  typeof format === 'object' && format !== null ? (format as { type?: unknown }).type : undefined;
