/** extractMainContent on pages whose <main> is a small part of their text: the page says where its content is. */
import { describe, expect, it } from 'vitest';

import { extract, prose } from './__fixtures__/synthetic-page.js';

const steps = (title: string, lines: string[]): string =>
  `<div class="install-steps"><h3>${title}</h3><ol>${lines.map((l) => `<li>${l}</li>`).join('')}</ol></div>`;

/** A forum's "install the app" and "push notifications" help panels, in plain divs outside <main>. */
const appHelp = `<div class="pwa-help"><div class="pwa-intro"><h2>View in the app</h2><p>A better way to browse. A full-screen app on your home screen with push notifications, badges and more.</p></div>${steps(
  'To install this app on iOS and iPadOS',
  ['Tap the Share icon in Safari.', 'Scroll the menu and tap Add to Home Screen.', 'Tap Add in the top-right corner.'],
)}${steps('To install this app on Android', [
  'Tap the 3-dot menu in the top-right corner of the browser.',
  'Tap Add to Home screen or Install app.',
  'Confirm by tapping Install.',
])}</div><div class="push-help"><h2>Configure browser push notifications</h2>${steps('Chrome (Android)', [
  'Tap the lock icon next to the address bar.',
  'Tap Permissions, then Notifications.',
  'Adjust your preference.',
])}${steps('Chrome (Desktop)', [
  'Click the padlock icon in the address bar.',
  'Select Site settings.',
  'Find Notifications and adjust your preference.',
])}${steps('Safari (macOS)', [
  'Go to Safari, then Preferences.',
  'Click the Websites tab.',
  'Select Notifications in the sidebar.',
  'Find this website and adjust your preference.',
])}${steps('Edge (Android)', [
  'Tap the lock icon next to the address bar.',
  'Tap Permissions.',
  'Find Notifications and adjust your preference.',
])}${steps('Firefox (Desktop)', [
  'Click the shield icon to the left of the address bar.',
  'Open Connection secure, then More information.',
  'Find Permissions and change Send notifications.',
])}${steps('Safari (iOS 16.4 and later)', [
  'Make sure the site is installed with Add to Home Screen.',
  'Open the Settings app, then Notifications.',
  'Find the app name and adjust your preference.',
])}</div><div class="promo-cards"><div class="card"><h3>Squarespace Webinars</h3><p>Free online sessions where you will learn the basics and refine your skills, every week of the year.</p><a href="/webinars">Upcoming Webinars</a></div><div class="card"><h3>Hire a Designer</h3><p>Stand out online with the help of an experienced designer or developer, matched to your project.</p><a href="/match">Get Matched</a></div></div>`;

describe('extractMainContent: the page’s one <main>', () => {
  it('keeps a short thread in <main> and drops the app and notification help panels around it', () => {
    const html = `<!doctype html><html><head><title>Roadmap discussion - Forum</title></head><body><a class="skip" href="#main">Jump to content</a><div id="app"><div class="top-bar"><a href="/">Forum</a> <a href="/login">Sign in</a></div>${appHelp}<main id="main"><h1>Roadmap discussion</h1><div class="topic-post"><div class="names"><a href="/u/ana">ana</a> <span>March 3</span></div>${prose('question', 1)}</div><div class="topic-post"><div class="names"><a href="/u/bo">bo</a> <span>March 4</span></div>${prose('answer', 1)}</div></main></div></body></html>`;
    const { text } = extract(html);
    expect(text).toContain('question paragraph 1');
    expect(text).toContain('answer paragraph 1');
    expect(text).not.toContain('Tap the lock icon');
    expect(text).not.toContain('home screen with push notifications');
    expect(text).not.toContain('Hire a Designer');
  });
});
