// Poll widgets after a story (`polls.ts`): a question, one group of radio buttons and a vote button go with the count
// of votes after a brief, with or without a <form>; a survey of several questions, an option picker that asks nothing
// and a poll the story goes on after keep theirs.
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';

import { explainPage } from '../explain/index.js';
import { extractMainContent } from './index.js';
import { findFormControls } from './form-controls.js';
import { findPollForms } from './polls.js';

const brief = `<h1>Tram depot to get solar roof</h1><p>The city's tram depot will be covered with solar panels next summer, enough to run the workshop and the offices and to charge the maintenance vans on most days of the year.</p><p>Work starts in April and should take ten weeks.</p>`;

const options = (name: string, labels: string[]): string =>
  labels.map((l, i) => `<label><input type="radio" name="${name}" value="${i}"> ${l}</label>`).join('');

/** A poll: `question`, three options and a vote button, in a <form> or not, and a count of votes. */
const poll = (question = 'Should more depots get solar roofs?', form = true): string => {
  const fields = `${options('p1', ['Yes', 'No', 'Not sure'])}<button>Vote</button>`;
  return `<div class="e-3"><p class="e-4">${question}</p>${form ? `<form>${fields}</form>` : `<div>${fields}</div>`}<p>2,310 votes</p></div>`;
};

const page = (article: string): string =>
  `<!doctype html><html><head><title>T</title></head><body><div class="k-1"><a href="/">Gazette</a></div><article class="k-2">${article}</article></body></html>`;

const text = (html: string): string => textContent(extractMainContent(parseDocument(html))).replace(/\s+/g, ' ');

describe('extractMainContent: polls after a story', () => {
  it('drops a poll after a brief, its question and count with it, with or without a form', () => {
    for (const html of [page(`${brief}${poll()}`), page(`${brief}${poll(undefined, false)}`)]) {
      const out = text(html);
      expect(out).toContain('ten weeks');
      expect(out).not.toContain('Should more depots');
      expect(out).not.toContain('2,310 votes');
    }
  });

  it('finds no poll in a survey of several questions, and keeps options that ask no question', () => {
    const survey = `<form><p>How often do you ride the tram?</p>${options('q1', ['Daily', 'Weekly', 'Rarely'])}<p>Which line do you use?</p>${options('q2', ['Red', 'Blue', 'Green'])}<button>Send</button></form>`;
    expect(findPollForms(findFormControls(parseDocument(survey)).radios).size).toBe(0);
    expect(findPollForms(findFormControls(parseDocument(poll())).radios).size).toBe(1);
    expect(text(page(`${brief}${poll('Pick a panel colour.')}`))).toContain('Pick a panel colour.');
  });

  it('keeps a poll that the story goes on after', () => {
    const after = `<p>The depot's roof was replaced in 2019 and can carry the panels without new steelwork, the city's engineers said, and the panels are expected to pay for themselves within nine years.</p>`;
    expect(text(page(`${brief}${poll()}${after}`))).toContain('Should more depots');
  });

  it('names its rule in explainPage', () => {
    const block = explainPage(page(`${brief}${poll()}`), {
      url: 'https://gazette.example/city/2026/tram-depot-solar-roof',
    }).blocks.find((b) => b.text.includes('Should more depots'));
    expect(block).toMatchObject({ verdict: 'dropped', rule: 'poll', module: 'polls.ts' });
  });
});
