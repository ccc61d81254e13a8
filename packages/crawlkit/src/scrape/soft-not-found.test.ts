import { describe, expect, it } from 'vitest';

import { GONE_STATES, goneSentence, softNotFoundNote, titleSaysNotFound } from './soft-not-found.js';

describe('titleSaysNotFound', () => {
  it.each([
    '404',
    'Page not found – My Blog',
    'Page Not Found | Docs',
    '404 - Not Found',
    'Error 404 (Not Found)',
    'Oops! That page can’t be found. – Shop',
    'Docs :: 404',
    'Error: 404',
    'Seite nicht gefunden - Beispiel GmbH',
    'ページが見つかりません | 例',
    'This page could not be found',
  ])('reads %j as a not-found page', (title) => expect(titleSaysNotFound(title)).toBe(true));

  it.each([
    'Why 404 pages matter – Design notes',
    'Not found: a memoir of lost things',
    'Lost and found | City services',
    'HTTP status codes: 404 and 410 explained',
    'Found in translation',
    'Home',
    '',
  ])('does not read %j as one', (title) => expect(titleSaysNotFound(title)).toBe(false));
});

describe('softNotFoundNote', () => {
  it('notes a 2xx page only, with its title', () => {
    expect(softNotFoundNote(200, 'Page not found | Docs')).toBe(
      'The page answered 200 but its title, "Page not found | Docs", says it was not found: a soft 404, most likely ' +
        '(the address is wrong, or the site answers every unknown path with this page).',
    );
    expect(softNotFoundNote(404, 'Page not found')).toBeUndefined();
    expect(softNotFoundNote(200, undefined)).toBeUndefined();
    expect(softNotFoundNote(200, 'Installing')).toBeUndefined();
  });
});

describe('goneSentence', () => {
  it.each([
    [
      '# Data Analyst\n\nRemote.\n\nThis job is no longer available. [See open roles](/jobs)',
      'This job is no longer available.',
    ],
    ['**Sorry, this position has been filled!**', 'Sorry, this position has been filled!'],
    [
      'We are no longer accepting applications for this role.',
      'We are no longer accepting applications for this role.',
    ],
    ['The listing has expired', 'The listing has expired'],
  ])('reads %j', (markdown, sentence) => expect(goneSentence(markdown)).toBe(sentence));

  it('answers each text for itself when asked of one text after another (the last answer is kept)', () => {
    const gone = 'Remote.\n\nThis job has expired.';
    const open = 'Remote.\n\nThis job is open now.';
    expect(open.length).toBe(gone.length);
    for (let i = 0; i < 2; i++) {
      expect(goneSentence(gone)).toBe('This job has expired.');
      expect(goneSentence(gone)).toBe('This job has expired.');
      expect(goneSentence(open)).toBeUndefined();
      expect(goneSentence(`${gone.slice(0, 8)}${gone.slice(8)}`)).toBe('This job has expired.');
    }
  });

  it.each(GONE_STATES)('reads every state, in any case: "This role %s"', (state) => {
    expect(goneSentence(`Berlin.\n\nThis role ${state}.`)).toBe(`This role ${state}.`);
    expect(goneSentence(`# THIS ROLE ${state.toUpperCase()}`)).toBe(`THIS ROLE ${state.toUpperCase()}`);
  });

  it.each([
    'The banner read "This job has expired" for a week.',
    '> This job is no longer available.',
    'Acme Corp is no longer available.',
    `${'A long article about postings. '.repeat(30)}This job has expired.`,
  ])('does not read %j', (markdown) => expect(goneSentence(markdown)).toBeUndefined());
});
