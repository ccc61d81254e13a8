import { createWriteStream, type WriteStream } from 'node:fs';
import { finished, Writable } from 'node:stream';

/** The stream a command's output goes to under `--out page.md`, and how the file is opened. */
export interface OutFile {
  readonly stream: Writable;
  /**
   * Makes the first write append to the file instead of replacing it: `crawlkit resume`'s pages to come go after
   * the interrupted run's. No effect once the file is open.
   */
  append(): void;
}

/**
 * The file of `--out page.md`, opened (made or truncated, or appended to) at the first write, so that a command
 * refused before it prints leaves an existing file as it was.
 */
export function outFile(path: string): OutFile {
  let file: WriteStream | undefined;
  let flags = 'w';
  const open = (stream: Writable): WriteStream => {
    file = createWriteStream(path, { flags });
    file.on('error', (error) => stream.destroy(error));
    return file;
  };
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      (file ?? open(this)).write(chunk, callback);
    },
    final(callback) {
      if (!file) return callback();
      finished(file.end(), (error) => callback(error ?? null));
    },
  });
  return {
    stream,
    append: () => {
      flags = 'a';
    },
  };
}
