import * as puppeteer from 'puppeteer-core';
import { describe, expect, it } from 'vitest';

import { totalWaitMs } from './schema.js';
import { KEY_NAMES } from './steps/key-names.js';
import { validateActions } from './validate.js';

const fails = (actions: unknown[], waitFor = 0) => {
  try {
    validateActions(actions, waitFor);
  } catch (error) {
    return error as Error & { code: string; index?: number };
  }
  throw new Error('expected validation to fail');
};

describe('validateActions', () => {
  it('accepts every action type with its fields', () => {
    expect(() =>
      validateActions([
        { type: 'wait', milliseconds: 100 },
        { type: 'wait', selector: '#a' },
        { type: 'click', selector: 'button', all: true },
        { type: 'write', text: '' },
        { type: 'press', key: 'Enter' },
        { type: 'scroll' },
        { type: 'scroll', direction: 'up', selector: '#list' },
        { type: 'screenshot', fullPage: true, quality: 80, viewport: { width: 7680, height: 4320 } },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'document.title' },
        { type: 'pdf', format: 'A4', landscape: true, scale: 2 },
      ]),
    ).not.toThrow();
  });

  it('uses the v2 messages for the v2 rules', () => {
    expect(fails(Array.from({ length: 51 }, () => ({ type: 'scrape' }))).message).toBe(
      'Number of actions cannot exceed 50',
    );
    expect(fails([{ type: 'wait' }]).message).toBe(
      "Either 'milliseconds' or 'selector' must be provided, but not both.",
    );
    expect(fails([{ type: 'wait', milliseconds: 1, selector: 'a' }]).code).toBe('BAD_REQUEST');
    expect(fails([{ type: 'wait', milliseconds: 50_000 }], 11_000).message).toBe(
      'Total wait time (waitFor + wait actions) cannot exceed 60 seconds',
    );
  });

  it('counts a selector wait as one second of the total', () => {
    expect(
      totalWaitMs(
        [
          { type: 'wait', selector: 'a' },
          { type: 'wait', milliseconds: 500 },
        ],
        100,
      ),
    ).toBe(1600);
    expect(() =>
      validateActions([
        { type: 'wait', milliseconds: 59_000 },
        { type: 'wait', selector: 'a' },
      ]),
    ).not.toThrow();
    expect(
      fails([
        { type: 'wait', milliseconds: 59_001 },
        { type: 'wait', selector: 'a' },
      ]).code,
    ).toBe('BAD_REQUEST');
  });

  it('names the index and field of a malformed action', () => {
    const unknownType = fails([{ type: 'scrape' }, { type: 'hover', selector: 'a' }]);
    expect(unknownType).toMatchObject({ code: 'BAD_REQUEST', index: 1 });
    expect(unknownType.message).toContain('unknown type "hover"');
    expect(fails([{ type: 'click' }]).message).toContain('`selector` must be a non-empty string');
    expect(fails([{ type: 'click', selector: 'a', extra: 1 }]).message).toContain('`extra` is not a field');
    expect(fails([{ type: 'screenshot', quality: 0 }]).message).toContain('`quality` must be an integer 1..100');
    expect(fails([{ type: 'screenshot', viewport: { width: 7681, height: 10 } }]).message).toContain('viewport.width');
    expect(fails([{ type: 'scroll', direction: 'left' }]).message).toContain('`direction`');
    expect(fails([{ type: 'pdf', format: 'B5' }]).message).toContain('`format` must be one of');
    expect(fails([{ type: 'pdf', scale: 3 }]).message).toContain('`scale` must be a number 0.1..2');
    expect(fails([{ type: 'executeJavascript' }]).message).toContain('`script`');
    expect(fails([{ type: 'wait', milliseconds: 1.5 }]).message).toContain('positive integer');
  });

  it('refuses a key name the browser does not know, naming the one meant, before any page loads', () => {
    // Before: accepted here, and the action failed after the page's load with puppeteer's 'Unknown key: "Entr"'.
    expect(fails([{ type: 'press', key: 'Entr' }])).toMatchObject({ code: 'BAD_REQUEST', index: 0 });
    expect(fails([{ type: 'press', key: 'Entr' }]).message).toContain(
      '"Entr" is not a key name; did you mean "Enter"?',
    );
    expect(fails([{ type: 'press', key: 'Control+arrowleft' }]).message).toContain('did you mean "ArrowLeft"?');
    expect(fails([{ type: 'press', key: 'Hyper' }]).message).toContain(
      'use a single character or a name as in Playwright (Enter, Tab',
    );
    expect(() =>
      validateActions(['é', 'ArrowLeft', 'Shift+Tab', 'Shift++', 'F12'].map((key) => ({ type: 'press', key }))),
    ).not.toThrow();
  });

  it('knows the key names puppeteer knows', () => {
    // Exported at run time, though not in puppeteer's types.
    const { _keyDefinitions } = puppeteer as unknown as { _keyDefinitions: Record<string, unknown> };
    const names = Object.keys(_keyDefinitions).filter((name) => name.length > 1);
    expect([...KEY_NAMES].sort()).toEqual(names.sort());
  });
});
