// What one `crawlkit` command costs its user before it does anything: `--version`, `scrape --help`, and a `scrape` of
// a local page to markdown, each a fresh process. CPU (user + system, every thread) and peak RSS are the process's
// own (`process.resourceUsage()` at its exit, written to a pipe by a preloaded module of a few lines), so that they
// move less than wall time with the machine's load. With a baseline build the two builds alternate within each round.
//
//   node bench/cli-start.ts [--quick] [--rounds N]
//   CK_BENCH_BASE=<baseline>/packages/crawlkit/dist/index.js: the baseline beside this build (or CK_BENCH_CRAWLKIT's).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { abBuilds, numberOption } from './lib/ab-builds.ts';
import { finish, goal, isQuick, median, type Row } from './lib/report.ts';
import { serveStaticSite } from './lib/static-site.ts';

const args = process.argv.slice(2);
const quick = isQuick(args);
const rounds = numberOption('--rounds', quick ? 3 : 9, args);
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'site');

/** Writes the process's CPU time and peak RSS to fd 3 as it exits (every way out of the CLI goes through `exit`). */
const USAGE = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs';" +
    "process.on('exit', () => { const u = process.resourceUsage();" +
    'writeSync(3, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, rssMb: u.maxRSS / 1024 })); });',
)}`;

/** A start that loads commander and the command definitions only (an empty Node process takes ~40 ms). */
const VERSION_GOAL_MS = 150;

interface Sample {
  cpuMs: number;
  rssMb: number;
  wallMs: number;
}

function run(cli: string, argv: string[]): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const proc = spawn(process.execPath, ['--import', USAGE, cli, ...argv], {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let usage = '';
    let err = '';
    proc.stdout!.resume();
    proc.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.stdio[3]!.on('data', (chunk: Buffer) => (usage += chunk.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`crawlkit ${argv.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      resolve({ ...(JSON.parse(usage) as Omit<Sample, 'wallMs'>), wallMs });
    });
  });
}

const site = await serveStaticSite(fixtures);
const url = `${site.url}/articles/first-post.html`;
const store = mkdtempSync(join(tmpdir(), 'ck-cli-start-'));

const COMMANDS: { name: string; argv: (round: number) => string[] }[] = [
  { name: 'crawlkit --version', argv: () => ['--version'] },
  { name: 'crawlkit scrape --help', argv: () => ['scrape', '--help'] },
  // A store of its own each time: a page cached by the previous run would skip the fetch.
  { name: 'crawlkit scrape URL', argv: (round) => ['scrape', url, '--store', join(store, String(round))] },
];
const builds = abBuilds().map(([name, entry]) => ({ name, cli: join(dirname(entry), 'cli.js') }));
const key = (command: string, build: string) => `${command} | ${build}`;
const samples = new Map<string, Sample[]>();

// Round 0 warms the compile cache each CLI keeps (as a user's second command finds it) and is not counted.
for (let round = 0; round <= rounds; round++) {
  for (const command of COMMANDS) {
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      const sample = await run(build.cli, command.argv(round));
      if (round > 0)
        samples.set(key(command.name, build.name), [...(samples.get(key(command.name, build.name)) ?? []), sample]);
    }
  }
}
await site.close();
rmSync(store, { recursive: true, force: true });

const rows: Row[] = COMMANDS.flatMap((command) =>
  builds.map((build) => {
    const list = samples.get(key(command.name, build.name))!;
    const med = (pick: (s: Sample) => number) => median(list.map(pick));
    return {
      command: command.name,
      build: build.name,
      'CPU ms': Math.round(med((s) => s.cpuMs)),
      'peak RSS MB': Math.round(med((s) => s.rssMb)),
      'wall ms': Math.round(med((s) => s.wallMs)),
    };
  }),
);

const thisBuild = builds.at(-1)!.name;
const versionCpu = median(samples.get(key(COMMANDS[0]!.name, thisBuild))!.map((s) => s.cpuMs));

finish({
  name: 'cli-start',
  title: `A CLI command's start: medians of ${rounds} fresh processes a row, builds alternating`,
  quick,
  columns: ['command', 'build', 'CPU ms', 'peak RSS MB', 'wall ms'],
  rows,
  notes: [
    "CPU ms: user + system of the whole process (its threads too); peak RSS: the process's; wall ms: spawn to exit.",
    ...builds.map((build) => `${build.name}: ${build.cli}`),
  ],
  goals: [
    goal(
      'cli-start.version',
      `\`crawlkit --version\` <= ${VERSION_GOAL_MS} ms of CPU`,
      versionCpu,
      VERSION_GOAL_MS,
      `${Math.round(versionCpu)} ms`,
      { atMost: true },
    ),
  ],
  data: { rounds, builds, samples: Object.fromEntries(samples) },
});
