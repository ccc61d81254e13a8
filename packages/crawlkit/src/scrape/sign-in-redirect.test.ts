import { describe, expect, it } from 'vitest';

import { signInRedirectNote } from './sign-in-redirect.js';

describe('a page that landed on a sign-in page', () => {
  it("is told when the landing's address is a sign-in page's and its query names the page", () => {
    for (const landed of [
      'https://wiki.corp/login?next=%2Fdocs%2Fguide',
      'https://wiki.corp/users/sign_in?return_to=https%3A%2F%2Fwiki.corp%2Fdocs%2Fguide',
      'https://sso.corp/cas/login?service=https%3A%2F%2Fwiki.corp%2Fdocs%2Fguide',
      'https://accounts.example/o/oauth2/auth?redirect=https://wiki.corp/docs/guide',
    ]) {
      expect(signInRedirectNote('https://wiki.corp/docs/guide', landed), landed).toMatch(
        /^The page https:\/\/wiki\.corp\/docs\/guide redirected to .*, a sign-in page that names it as the way back/,
      );
    }
  });

  it('is not told of other redirects', () => {
    const asked = 'https://wiki.corp/docs/guide';
    // a sign-in page whose way back is another page, a moved page that says where it came from, no redirect at all
    expect(signInRedirectNote(asked, 'https://wiki.corp/login?next=%2F')).toBeUndefined();
    expect(signInRedirectNote(asked, 'https://wiki.corp/guide?from=%2Fdocs%2Fguide')).toBeUndefined();
    expect(signInRedirectNote(asked, asked)).toBeUndefined();
    expect(signInRedirectNote(asked, 'https://wiki.corp/docs/guide/')).toBeUndefined();
  });
});
