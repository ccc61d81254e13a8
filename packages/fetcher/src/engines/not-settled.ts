/**
 * The warning of a rendered page captured before it settled: its requests or DOM changes went on, or it showed only
 * a loading placeholder, past the wait.
 */
export const NOT_SETTLED_WARNING =
  'The page was still loading when it was captured: its requests or DOM changes went on, or it showed only a ' +
  'loading placeholder ("Loading…", a spinner), past the wait for it to ' +
  "settle (browser.smartWaitMaxMs, at most the scrape's timeout), so its content may be incomplete. `waitFor`, a " +
  '`wait` action for a selector or a longer `timeout` give it more time.';

/**
 * The warning of a rendered page that settled showing nothing but its empty mount point or its scripts
 * (`showsEmptyShell`), with its scripts' first uncaught error when it had one: a scrape that answered an empty
 * markdown said nothing of why.
 */
export function emptyShellWarning(scriptError: string | undefined): string {
  const why = scriptError === undefined ? '' : `; its scripts failed (${scriptError})`;
  return (
    'The page showed next to no text once rendered in the browser (an empty mount point such as <div id="root">, ' +
    `or little but its scripts)${why}. Its content may come later (\`waitFor\`, a \`wait\` action for a selector) or ` +
    'from a request the page could not make.'
  );
}
