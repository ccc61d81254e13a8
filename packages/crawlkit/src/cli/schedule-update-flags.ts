import { Option, type Command } from 'commander';

import type { UpdateScheduleInput } from '../schedules/schedule-request.js';

/** A flag of `crawlkit schedules update`: its commander form, and the field of the update it sets. */
interface UpdateFlag {
  flags: string;
  key: keyof UpdateScheduleInput;
  help: string;
  /** Given more than once, its values in order. */
  repeatable?: boolean;
}

/**
 * The flags of `schedules update`, the one list of them: the command's options, what an update with none of them asks
 * for, the refusal of one by another action, and the update's fields (`targets`: by `targetsOf`) are all read from it.
 */
export const UPDATE_FLAGS: readonly UpdateFlag[] = [
  { flags: '--every <interval>', key: 'every', help: 'update: the new clock, an interval (30s, 15m, 6h, 1d)' },
  { flags: '--cron <expression>', key: 'cron', help: 'update: the new clock, a cron expression (UTC, or --timezone)' },
  {
    flags: '--timezone <zone>',
    key: 'timezone',
    help: 'update: the time zone the cron expression is read in (default UTC)',
  },
  { flags: '--name <name>', key: 'name', help: 'update: the new name' },
  {
    flags: '--webhook <url>',
    key: 'webhook',
    help: "update: POST the schedule's changes to this URL, one request each",
  },
  { flags: '--no-webhook', key: 'webhook', help: 'update: stop posting the changes' },
  {
    flags: '--crawl <url>',
    key: 'targets',
    help: 'update: the new targets: a crawl of this URL; repeatable, with --scrape',
    repeatable: true,
  },
  {
    flags: '--scrape <url>',
    key: 'targets',
    help: 'update: the new targets: a scrape of this URL; repeatable, with --crawl',
    repeatable: true,
  },
  {
    flags: '--targets <json>',
    key: 'targets',
    help: "update: the new targets as the API's `targets`, inline JSON or @file.json",
  },
];

/** A flag given more than once: its values in order. */
const repeatFlag = (value: string, previous: string[] = []) => [...previous, value];

export function addScheduleUpdateFlags(command: Command): Command {
  for (const flag of UPDATE_FLAGS) {
    const option = new Option(flag.flags, flag.help);
    command.addOption(flag.repeatable ? option.argParser(repeatFlag) : option);
  }
  return command;
}

/**
 * The update flags given to `command`, in the list's order, each with its value (`--no-webhook`'s is `false`; a
 * `--webhook <url>` and a `--no-webhook` share one value, the last given).
 */
export function givenUpdateFlags(command: Command): { flag: UpdateFlag; name: string; value: unknown }[] {
  return UPDATE_FLAGS.flatMap((flag) => {
    const option = new Option(flag.flags);
    const value: unknown = command.getOptionValue(option.attributeName());
    const given = option.negate ? value === false : value !== undefined && value !== false;
    return given ? [{ flag, name: option.long!, value }] : [];
  });
}

/** What `schedules update` with no flag is told to give. */
export function updateFlagsList(): string {
  const fields = UPDATE_FLAGS.filter((flag) => flag.key !== 'targets').map((flag) => new Option(flag.flags).long!);
  const targets = UPDATE_FLAGS.filter((flag) => flag.key === 'targets').map((flag) => flag.flags);
  return `${fields.join(', ')}, or the targets (${targets.join(', ')})`;
}
