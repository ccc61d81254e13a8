import { redactUrl } from '@crawlkit/fetcher';

/**
 * Whether a query value of `landed` names `asked` (`?next=%2Fdocs`, `?service=http://wiki/docs`): the way back a
 * sign-in page keeps for the page that sent its visitor there.
 */
export function namesPage(landed: URL, asked: URL): boolean {
  const forms = new Set([
    asked.href,
    `${asked.origin}${asked.pathname}`,
    asked.pathname + asked.search,
    asked.pathname,
  ]);
  for (const value of landed.searchParams.values()) {
    if (forms.has(value)) return true;
    const target = URL.parse(value, asked.href);
    if (target && target.origin === asked.origin && target.pathname === asked.pathname) return true;
  }
  return false;
}

/** The words of a sign-in page's address, in its host (`sso.corp`, `login.example`) or its path (`/users/sign_in`). */
const SIGN_IN_ADDRESS =
  /(?:^|[^a-z])(?:log-?in|sign-?in|sign_in|signon|sso|cas|auth|oauth2?|saml|session|accounts?)(?:[^a-z]|$)/i;

/** Whether a fetch of `asked` landed on a sign-in page (`landed`, by its address) that names it as the way back. */
function landsOnSignIn(asked: URL, landed: URL): boolean {
  if (!landed.search || landed.href === asked.href) return false;
  if (!SIGN_IN_ADDRESS.test(landed.hostname) && !SIGN_IN_ADDRESS.test(landed.pathname)) return false;
  return namesPage(landed, asked);
}

/** `landsOnSignIn` for two URLs as strings: false when either is no URL. A crawl refuses such a page. */
export function landedOnSignIn(askedUrl: string, landedUrl: string): boolean {
  const asked = URL.parse(askedUrl);
  const landed = URL.parse(landedUrl);
  return asked !== null && landed !== null && landsOnSignIn(asked, landed);
}

/**
 * The note of a page whose fetch landed on a sign-in page: its address names such a page and its query names the page
 * asked for. The document is the sign-in page, not the page: without it a crawl of a site behind a session stored
 * copies of its sign-in page under every URL, without a word. Undefined for any other page.
 */
export function signInRedirectNote(askedUrl: string, landedUrl: string): string | undefined {
  const asked = URL.parse(askedUrl);
  const landed = URL.parse(landedUrl);
  if (!asked || !landed || !landsOnSignIn(asked, landed)) return undefined;
  return (
    `The page ${redactUrl(asked)} redirected to ${redactUrl(landed)}, a sign-in page that names it as the way back: ` +
    `this document is the sign-in page. ${sendTheSession('request')}`
  );
}

/**
 * How to send a session past a sign-in page, said by every note of one: with a scrape's `request` (its `headers`) or
 * with a `crawl` (`scrapeOptions.headers`, which every page of the crawl sends). Credentials in the URL go with a
 * crawl's pages on the seed's host (`seedCredentials`).
 */
export function sendTheSession(target: 'request' | 'crawl'): string {
  const headers = target === 'crawl' ? '`scrapeOptions.headers`' : '`headers`';
  return (
    `Send the session with the ${target}: ${headers} (a \`Cookie\` or \`Authorization\` header), or the user name ` +
    'and password in the URL for Basic auth.'
  );
}
