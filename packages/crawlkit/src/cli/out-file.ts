import { createWriteStream, type WriteStream } from 'node:fs';
import { finished, Writable } from 'node:stream';

/**
 * The stream a command's output goes to under `--out page.md`: the file, opened (made or truncated) at the first
 * write, so that a command refused before it prints leaves an existing file as it was.
 */
export function outFileStream(path: string): Writable {
  let file: WriteStream | undefined;
  const open = (stream: Writable): WriteStream => {
    file = createWriteStream(path);
    file.on('error', (error) => stream.destroy(error));
    return file;
  };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      (file ?? open(this)).write(chunk, callback);
    },
    final(callback) {
      if (!file) return callback();
      finished(file.end(), (error) => callback(error ?? null));
    },
  });
}
