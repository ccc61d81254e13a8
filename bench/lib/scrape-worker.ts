// Child process of bench/scrape-http.ts: one row (runner + concurrency), driven batch by batch over IPC so that the
// parent can interleave the rows finely. Messages in: `{ warm: urls }`, `{ run: urls }`, `{ exit: true }`; out: one
// reply each (`BatchResult` for `run`, `{ peakRssMB }` for `exit`).
//
//   fork('bench/lib/scrape-worker.ts', [runner, concurrency | 'default', defaultConcurrency])
//   BENCH_CPU_PROFILE=<file> profiles from the first `run` batch to exit (warm-up and module loading left out).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

import { peakRssMB } from './peak-rss.ts';
import { createRunner, type RunnerName } from './scrape-runners.ts';
import { threadCpuMs, threadCpuSince, type ThreadCpu } from './thread-cpu.ts';

export interface BatchResult {
  pages: number;
  ms: number;
  /** Pages that produced no output. */
  failed: number;
  outputChars: number;
  /** Why pages failed in this batch: error code → count. */
  errors: Record<string, number>;
  /** CPU milliseconds of the batch by kind of thread of this process (Linux only). */
  threadCpu?: ThreadCpu;
}

export type WorkerMessage = { warm: string[] } | { run: string[] } | { exit: true };

const [name, concurrencyArg, defaultArg] = process.argv.slice(2);
const runner = await createRunner(
  name as RunnerName,
  concurrencyArg === 'default' ? undefined : Number(concurrencyArg),
  Number(defaultArg),
);
const profileFile = process.env['BENCH_CPU_PROFILE'];
let session: Session | undefined;
let profiling = false;
if (profileFile) {
  session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
}

const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

process.on('message', (message: WorkerMessage) => {
  void (async () => {
    if ('exit' in message) {
      await runner.close();
      if (session && profileFile) {
        writeFileSync(profileFile, JSON.stringify((await session.post('Profiler.stop')).profile));
        session.disconnect();
      }
      await send({ peakRssMB: peakRssMB() });
      process.exit(0);
    }
    if ('warm' in message) {
      await runner.run(message.warm);
      await send({ warmed: true });
      return;
    }
    if (session && !profiling) {
      profiling = true;
      await session.post('Profiler.start');
    }
    const before = new Map(runner.errors);
    const cpu0 = threadCpuMs();
    const t0 = performance.now();
    const out = await runner.run(message.run);
    const ms = performance.now() - t0;
    const cpu1 = threadCpuMs();
    const result: BatchResult = {
      pages: out.length,
      ms,
      failed: out.filter((n) => n === 0).length,
      outputChars: out.reduce((a, b) => a + b, 0),
      errors: Object.fromEntries(
        [...runner.errors].map(([k, n]) => [k, n - (before.get(k) ?? 0)] as const).filter(([, n]) => n > 0),
      ),
      ...(cpu0 && cpu1 ? { threadCpu: threadCpuSince(cpu0, cpu1) } : {}),
    };
    await send(result);
  })();
});
await send({ ready: true });
