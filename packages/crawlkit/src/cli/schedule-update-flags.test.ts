import { Command } from 'commander';
import { describe, expect, it } from 'vitest';

import { updateScheduleSchema } from '../schedules/schedule-request.js';
import { createProgram } from './program.js';
import { addScheduleUpdateFlags, givenUpdateFlags, UPDATE_FLAGS, updateFlagsList } from './schedule-update-flags.js';

const VALUES: Record<string, string[]> = {
  '--every': ['1h'],
  '--cron': ['0 * * * *'],
  '--timezone': ['Europe/Paris'],
  '--name': ['n'],
  '--webhook': ['http://127.0.0.1/'],
  '--no-webhook': [],
  '--crawl': ['http://127.0.0.1/a'],
  '--scrape': ['http://127.0.0.1/b'],
  '--targets': ['[]'],
};

function parsed(args: string[]): Command {
  const command = addScheduleUpdateFlags(new Command('schedules').argument('<action>').exitOverride());
  return command.parse(['update', ...args], { from: 'user' });
}

describe('schedules update flags', () => {
  it('every field of an update has a flag, and every flag sets a field of it', () => {
    const fields = Object.keys(updateScheduleSchema.shape).sort();
    expect([...new Set(UPDATE_FLAGS.map((flag) => flag.key))].sort()).toEqual(fields);
  });

  it('each flag the command takes is seen as given, by its own name, and is in what an empty update is told', () => {
    const command = addScheduleUpdateFlags(new Command('schedules'));
    const longs = command.options.map((option) => option.long!);
    expect(longs).toEqual(Object.keys(VALUES));
    for (const long of longs) {
      expect(updateFlagsList()).toContain(long);
      const given = givenUpdateFlags(parsed([long, ...VALUES[long]!]));
      expect(given.map(({ name }) => name)).toEqual([long]);
    }
    expect(givenUpdateFlags(parsed([]))).toEqual([]);
    expect(givenUpdateFlags(parsed(['--crawl', 'a', '--crawl', 'b']))[0]!.value).toEqual(['a', 'b']);
  });

  it("the command's flags for an update are all in the list", () => {
    const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
    const program = createProgram(io, new AbortController().signal, () => undefined);
    const schedules = program.commands.find((command) => command.name() === 'schedules')!;
    const forUpdate = schedules.options.filter((option) => option.description.startsWith('update:'));
    expect(forUpdate.map((option) => option.flags)).toEqual(UPDATE_FLAGS.map((flag) => flag.flags));
  });
});
