import { createRequire } from 'node:module';

import { lazyRequire } from '@crawlkit/options/lazy-module';
import type CliProgress from 'cli-progress';

const require = createRequire(import.meta.url);
/** Loaded by the first bar drawn: a command whose stderr is a pipe or a file (a script, an agent) never draws one. */
const cliProgress = lazyRequire(() => require('cli-progress') as typeof CliProgress);

/** What the progress line shows. */
export interface ProgressState {
  completed: number;
  total: number;
  errors: number;
}

/** A live progress line on a terminal; every method is a no-op when it is off. */
export interface Progress {
  update(state: Partial<ProgressState>): void;
  /** Removes the line (so that messages print cleanly) and stops redrawing. */
  stop(): void;
}

const OFF: Progress = { update: () => undefined, stop: () => undefined };

/**
 * The progress bar of a job on stderr: pages done/total, pages per second, errors and ETA. Off unless stderr is a
 * terminal (so nothing reaches pipes and files), and off with `--quiet`.
 */
export function createProgress(options: { stream: NodeJS.WriteStream; quiet: boolean; label: string }): Progress {
  if (options.quiet || !options.stream.isTTY) return OFF;
  const startedAt = Date.now();
  const state: ProgressState = { completed: 0, total: 0, errors: 0 };
  const bar = new (cliProgress().SingleBar)(
    {
      stream: options.stream,
      format: `${options.label} {bar} {value}/{total} pages | {rate} pages/s | {errors} errors | ETA {remaining}`,
      barsize: 24,
      hideCursor: true,
      clearOnComplete: true,
      fps: 8,
    },
    cliProgress().Presets.shades_classic,
  );
  const payload = () => {
    const seconds = (Date.now() - startedAt) / 1000;
    const rate = seconds > 0 ? state.completed / seconds : 0;
    const left = state.total - state.completed;
    // Not `eta`: cli-progress fills that token itself.
    return { errors: state.errors, rate: rate.toFixed(1), remaining: rate > 0 ? formatSeconds(left / rate) : '?' };
  };
  // A total of 1 until the first count arrives: cli-progress draws 0/0 as a full bar.
  bar.start(1, 0, payload());
  let stopped = false;
  return {
    update(next) {
      if (stopped) return;
      // Events of concurrent pages can arrive out of order: counts only grow.
      state.completed = Math.max(state.completed, next.completed ?? 0);
      state.total = Math.max(state.total, next.total ?? 0, state.completed, 1);
      state.errors = Math.max(state.errors, next.errors ?? 0);
      bar.setTotal(state.total);
      bar.update(state.completed, payload());
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}

/** `75` → `1m15s`; `3700` → `1h01m`. */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
