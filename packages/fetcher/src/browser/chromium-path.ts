import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

import { browserBehindLauncher } from './chromium-wrapper.js';
import { BrowserError } from './errors.js';

/** Environment variable naming the Chromium executable. */
export const CHROMIUM_ENV = 'CRAWLKIT_CHROMIUM';

const ABSOLUTE_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A Chromium found (not named by the user): the binary itself when it is a launcher script's (Debian's). */
function found(candidate: string): string {
  return browserBehindLauncher(candidate, isExecutable) ?? candidate;
}

/**
 * The Chromium to launch: `explicit` (the `browser.executablePath` option), else `$CRAWLKIT_CHROMIUM`, else the
 * first of `/usr/bin/chromium`, `chromium-browser`, `google-chrome` (and the same names on `$PATH`). What the user
 * names is launched as named; a Chromium found that is a shell launcher `exec`ing the browser binary (Debian's
 * `/usr/bin/chromium`) is replaced by that binary, which starts the same browser without the script's processes and
 * flags (docs/decisions.md, "The browser binary behind Debian's launcher").
 * @throws BrowserError `BROWSER_NOT_FOUND` whose message names the fix.
 */
export function resolveChromiumPath(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = explicit ?? env[CHROMIUM_ENV];
  if (configured) {
    if (isExecutable(configured)) return configured;
    const source = explicit ? '`browser.executablePath`' : `$${CHROMIUM_ENV}`;
    throw new BrowserError(
      'BROWSER_NOT_FOUND',
      `Chromium not found at ${configured} (from ${source}): no executable file there. Point it at a Chromium or Chrome binary, or install one with \`apt-get install chromium\`.`,
    );
  }
  for (const candidate of ABSOLUTE_CANDIDATES) if (isExecutable(candidate)) return found(candidate);
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of PATH_NAMES) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return found(candidate);
    }
  }
  throw new BrowserError(
    'BROWSER_NOT_FOUND',
    `No Chromium found (looked for ${PATH_NAMES.slice(0, 3).join(', ')} in /usr/bin and on $PATH). Install one with \`apt-get install chromium\`, or set ${CHROMIUM_ENV} (or the \`browser.executablePath\` option) to a Chromium or Chrome binary.`,
  );
}
