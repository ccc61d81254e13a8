import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How many of a job's documents (in completion order) a command has handed to stdout, kept beside the store
 * (`<store>/printed/<id>`) so that `crawlkit resume` prints from there. The engine stores pages faster than stdout
 * takes them: a command killed with `kill -9` leaves pages stored that it never printed, and a resume that started
 * after the stored count lost them from the output (a batch of 300 killed at 100 lines printed: 163 pages missing).
 * Ctrl-C prints the stored pages before it exits; `kill -9` cannot, hence a mark written as each page goes out.
 */
export class PrintedMark {
  readonly #file: string | undefined;

  /** No mark is kept for a job of Redis or of a memory store (`storeDir` undefined). */
  constructor(storeDir: string | undefined, id: string) {
    if (storeDir === undefined) return;
    try {
      mkdirSync(join(storeDir, 'printed'), { recursive: true });
      this.#file = join(storeDir, 'printed', fileName(id));
    } catch {
      // a store directory that cannot take it: a resume starts at the stored count, as before
    }
  }

  /** The mark a command left for `id`, if any. */
  static read(storeDir: string | undefined, id: string): number | undefined {
    if (storeDir === undefined) return undefined;
    try {
      const text = readFileSync(join(storeDir, 'printed', fileName(id)), 'utf8');
      return /^\d+$/.test(text) ? Number(text) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Records that the first `count` documents are with the kernel (stdout's write called back). Written to a
   * temporary file renamed over the mark: a kill between truncating and writing the mark left it empty.
   */
  set(count: number): void {
    if (this.#file === undefined) return;
    try {
      writeFileSync(`${this.#file}.tmp`, String(count));
      renameSync(`${this.#file}.tmp`, this.#file);
    } catch {
      // as above: without a mark a resume starts at the stored count
    }
  }

  /** Forgets the mark: the job was followed to its end. */
  remove(): void {
    if (this.#file !== undefined) rmSync(this.#file, { force: true });
  }
}

/** A job id is a UUID; anything else is kept to a safe file name. */
function fileName(id: string): string {
  return id.replace(/[^\w-]/g, '_');
}
