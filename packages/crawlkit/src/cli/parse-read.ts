/**
 * A file `crawlkit parse` converts, read whole, unless its size is past the engine's `parseFileLimit`: such a file is
 * answered `PAYLOAD_TOO_LARGE` from its size alone, as `parse()` would answer it, without reading it (a 200 MB scan
 * cost 400 MB of memory to be refused, a file past 2 GiB an error of Node's own instead).
 */
import { readFile, stat } from 'node:fs/promises';

import { parseFileTooLarge } from '../api/parse.js';
import { toErrorResponse } from '../errors.js';
import type { ErrorResponse } from '../v2/types.js';

/** The file's bytes, or the v2 answer to a file past `limit`. Fails as `readFile` does (a missing file). */
export async function readParseFile(path: string, limit: number): Promise<Uint8Array | ErrorResponse> {
  const { size } = await stat(path);
  if (size > limit) return toErrorResponse(parseFileTooLarge(size, limit));
  const bytes = await readFile(path);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
