// What the A/B scripts of monitors share (`monitor-checks.ts`, `monitor-recheck.ts`): a number option of the command
// line, the builds compared, and their samples taken in alternating child processes.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** `--name N` of the command line, else `fallback`. */
export function numberOption(name: string, fallback: number, argv = process.argv.slice(2)): number {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
}

/** The builds measured: `CK_BENCH_BASE` (when set) beside `CK_BENCH_CRAWLKIT`, else this worktree's. */
export function abBuilds(): [name: string, entry: string][] {
  return [
    ...(process.env['CK_BENCH_BASE'] ? [['baseline', process.env['CK_BENCH_BASE']] as [string, string]] : []),
    ['this build', process.env['CK_BENCH_CRAWLKIT'] || fileURLToPath(import.meta.resolve('crawlkit'))],
  ];
}

/**
 * Runs `child` (node `flags`, then the build's entry and `args`) for each build, `rounds` times, the order alternating
 * between rounds (neither build always on the warmer machine); each run's last stdout line is its JSON sample.
 */
export async function alternate<T>(
  child: string,
  rounds: number,
  args: string[],
  flags: string[] = [],
): Promise<Map<string, T[]>> {
  const builds = abBuilds();
  const samples = new Map<string, T[]>(builds.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, entry] of round % 2 === 0 ? builds : [...builds].reverse()) {
      const { stdout } = await promisify(execFile)(process.execPath, [...flags, child, entry, ...args], {
        maxBuffer: 16 * 1024 ** 2,
      });
      samples.get(name)!.push(JSON.parse(stdout.trim().split('\n').at(-1)!) as T);
    }
  }
  return samples;
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
