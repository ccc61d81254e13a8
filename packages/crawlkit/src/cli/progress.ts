import cliProgress from 'cli-progress';

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
  const bar = new cliProgress.SingleBar(
    {
      stream: options.stream,
      format: `${options.label} {bar} {value}/{total} pages | {rate} pages/s | {errors} errors | ETA {eta_formatted}`,
      barsize: 24,
      hideCursor: true,
      clearOnComplete: true,
      fps: 8,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = () => {
    const seconds = (Date.now() - startedAt) / 1000;
    return { errors: state.errors, rate: seconds > 0 ? (state.completed / seconds).toFixed(1) : '0.0' };
  };
  bar.start(0, 0, payload());
  let stopped = false;
  return {
    update(next) {
      if (stopped) return;
      // Events of concurrent pages can arrive out of order: counts only grow.
      state.completed = Math.max(state.completed, next.completed ?? 0);
      state.total = Math.max(state.total, next.total ?? 0, state.completed);
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
