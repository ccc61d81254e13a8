/**
 * The warning of a rendered page captured before it settled: its requests or DOM changes went on, or it showed only
 * a loading placeholder, past the wait.
 */
export const NOT_SETTLED_WARNING =
  'The page was still loading when it was captured: its requests or DOM changes went on, or it showed only a ' +
  'loading placeholder ("Loading…", a spinner), past the wait for it to ' +
  "settle (browser.smartWaitMaxMs, at most the scrape's timeout), so its content may be incomplete. `waitFor`, a " +
  '`wait` action for a selector or a longer `timeout` give it more time.';
