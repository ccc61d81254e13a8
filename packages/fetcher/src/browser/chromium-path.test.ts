import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resolveChromiumPath } from './chromium-path.js';
import { browserBehindLauncher } from './chromium-wrapper.js';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
let dir: string;

/** An executable file: `body` as given, or the start of an ELF binary. */
function executable(path: string, body: string | Buffer = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1])): string {
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return path;
}

/** A launcher as Debian writes `/usr/bin/chromium`: variables, checks, sourced files, then `exec`. */
function debianLauncher(name: string, libdir: string, shebang = '#!/bin/sh'): string {
  return executable(
    join(dir, name),
    [
      shebang,
      'APPNAME=chromium',
      'GDB=/usr/bin/gdb',
      `LIBDIR=${libdir}/$APPNAME`,
      'CHROMIUM_FLAGS=""',
      "if ! grep -q 'sse3\\|pni' /proc/cpuinfo; then exit 1; fi",
      'shm_avail=$(findmnt -bnr -o avail -T /dev/shm)',
      'for file in /etc/chromium.d/*; do . $file; done',
      'if [ $want_debug -eq 1 ] ; then',
      '  $GDB "$LIBDIR/$APPNAME" -x $tmpfile',
      'else',
      '    exec $LIBDIR/$APPNAME $CHROMIUM_FLAGS "$@"',
      'fi',
      '',
    ].join('\n'),
  );
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crawlkit-launcher-'));
  mkdirSync(join(dir, 'lib', 'chromium'), { recursive: true });
  executable(join(dir, 'lib', 'chromium', 'chromium'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the browser behind a launcher script', () => {
  it("sees through Debian's launcher to the binary it execs", () => {
    const binary = join(dir, 'lib', 'chromium', 'chromium');
    expect(browserBehindLauncher(debianLauncher('debian', join(dir, 'lib')), isExecutable)).toBe(binary);
    expect(browserBehindLauncher(debianLauncher('env', join(dir, 'lib'), '#!/usr/bin/env bash'), isExecutable)).toBe(
      binary,
    );
    const link = join(dir, 'linked');
    symlinkSync(debianLauncher('target', join(dir, 'lib')), link);
    expect(browserBehindLauncher(link, isExecutable)).toBe(binary);
  });

  it('keeps what it cannot follow: a binary, a computed path, a script behind, another program, no shell', () => {
    expect(browserBehindLauncher(join(dir, 'lib', 'chromium', 'chromium'), isExecutable)).toBeUndefined();
    const computed = executable(
      join(dir, 'google-chrome'),
      '#!/bin/bash\nHERE="$(dirname "$(readlink -f "$0")")"\nexec -a "$0" "$HERE/chrome" "$@"\n',
    );
    expect(browserBehindLauncher(computed, isExecutable)).toBeUndefined();
    mkdirSync(join(dir, 'scripts', 'chromium'), { recursive: true });
    executable(join(dir, 'scripts', 'chromium', 'chromium'), '#!/bin/sh\nexec true\n');
    expect(browserBehindLauncher(debianLauncher('to-script', join(dir, 'scripts')), isExecutable)).toBeUndefined();
    expect(browserBehindLauncher(debianLauncher('missing', join(dir, 'nowhere')), () => true)).toBeUndefined();
    const gdb = executable(join(dir, 'gdb-only'), '#!/bin/sh\nexec /usr/bin/gdb "$@"\n');
    expect(browserBehindLauncher(gdb, isExecutable)).toBeUndefined();
    const python = executable(
      join(dir, 'py'),
      `#!/usr/bin/python3\nexec ${join(dir, 'lib', 'chromium', 'chromium')}\n`,
    );
    expect(browserBehindLauncher(python, isExecutable)).toBeUndefined();
    const itself = executable(join(dir, 'chromium'), `#!/bin/sh\nexec ${join(dir, 'chromium')} "$@"\n`);
    expect(browserBehindLauncher(itself, isExecutable)).toBeUndefined();
    expect(browserBehindLauncher(join(dir, 'absent'), isExecutable)).toBeUndefined();
  });

  it('launches what the user names as named: the option and $CRAWLKIT_CHROMIUM are not seen through', () => {
    const launcher = debianLauncher('named', join(dir, 'lib'));
    expect(resolveChromiumPath(launcher, {})).toBe(launcher);
    expect(resolveChromiumPath(undefined, { CRAWLKIT_CHROMIUM: launcher })).toBe(launcher);
  });

  it('finds a launcher on $PATH and takes the binary behind it', () => {
    const onPath = join(dir, 'bin');
    mkdirSync(onPath);
    debianLauncher(join('bin', 'chromium'), join(dir, 'lib'));
    const found = resolveChromiumPath(undefined, { PATH: onPath });
    // This machine's /usr/bin/chromium comes first when it exists: then it is the binary behind Debian's launcher.
    expect([join(dir, 'lib', 'chromium', 'chromium'), '/usr/lib/chromium/chromium']).toContain(found);
  });
});
