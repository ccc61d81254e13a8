import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';

/** The most of a launcher script read: Debian's is 5 KB. */
const SCRIPT_BYTES = 64 * 1024;
const SHELLS = new Set(['sh', 'bash', 'dash', 'ksh', 'zsh']);
/** What the binary a launcher hands over to may be called: `chromium`, `chrome`, `chromium-browser`, … */
const BROWSER_NAME = /^(chromium|chrome|google-chrome)(-[a-z]+)?$/i;
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_]\w*)=(\S*)\s*$/;
const EXEC = /^\s*exec\s+(?:-a\s+\S+\s+)?(\S+)/;
const VARIABLE = /\$\{?([A-Za-z_]\w*)\}?/g;

/** The first `bytes` of a file, or `undefined` when it cannot be read. */
function head(file: string, bytes: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Whether `path` is not the launcher itself (by its real path) and not a script. */
function isOtherBinary(path: string, launcher: string): boolean {
  try {
    return realpathSync(path) !== launcher && head(path, 2)?.toString('latin1') !== '#!';
  } catch {
    return false;
  }
}

/** `$NAME` and `${NAME}` replaced by what the script set them to; `undefined` if one is not known. */
function expand(text: string, values: ReadonlyMap<string, string>): string | undefined {
  let unknown = false;
  const expanded = text.replace(VARIABLE, (_, name: string) => {
    const value = values.get(name);
    if (value === undefined) unknown = true;
    return value ?? '';
  });
  return unknown ? undefined : expanded;
}

/** Quotes around a whole word or around its parts, as a shell would drop them (no escapes: a launcher has none). */
function unquote(word: string): string {
  return word.replace(/["']/g, '');
}

/**
 * The browser binary a shell launcher script `exec`s, when `file` is one: Debian's `/usr/bin/chromium` runs `sh`,
 * reads `/proc/cpuinfo`, runs `find` and `findmnt` and sources `/etc/chromium.d` before it hands over to
 * `/usr/lib/chromium/chromium`, at every launch. Only a script whose shebang is a shell, whose `exec` names an
 * absolute path made of literal text and variables the script set plainly (`LIBDIR=/usr/lib/$APPNAME`), and whose
 * target is an executable file called like a browser that is not a script itself, is seen through.
 * @returns The binary, or `undefined` when `file` is not such a launcher (a binary, another script, one that
 *   computes where the browser is).
 */
export function browserBehindLauncher(file: string, isExecutable: (file: string) => boolean): string | undefined {
  const text = head(file, SCRIPT_BYTES)?.toString('utf8');
  const shebang = text === undefined ? undefined : /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (!text || !shebang) return undefined;
  const interpreter = basename(shebang[1] ?? '') === 'env' ? shebang[2] : shebang[1];
  if (!SHELLS.has(basename(interpreter ?? ''))) return undefined;
  const values = new Map<string, string>();
  let self: string;
  try {
    self = realpathSync(file);
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    const assignment = ASSIGNMENT.exec(line);
    if (assignment) {
      const value = expand(unquote(assignment[2] ?? ''), values);
      if (value === undefined) values.delete(assignment[1] ?? '');
      else values.set(assignment[1] ?? '', value);
      continue;
    }
    const target = EXEC.exec(line)?.[1];
    const path = target === undefined ? undefined : expand(unquote(target), values);
    if (!path?.startsWith('/') || !BROWSER_NAME.test(basename(path)) || !isExecutable(path)) continue;
    if (!isOtherBinary(path, self)) continue;
    return path;
  }
  return undefined;
}
