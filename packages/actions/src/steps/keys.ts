import type { KeyInput, Page } from 'puppeteer-core';

import { KEY_NAMES } from './key-names.js';

/** Modifier names a key combination may hold, as Playwright (v2's engine) names them; `ControlOrMeta` is Control. */
const MODIFIERS: Record<string, KeyInput> = {
  Shift: 'Shift',
  Control: 'Control',
  Alt: 'Alt',
  Meta: 'Meta',
  ControlOrMeta: 'Control',
};

/** The modifiers' names. */
export const MODIFIER_NAMES = Object.keys(MODIFIERS);

/** A key, or modifiers and a key joined by `+` (`Control+a`, `Shift++`): what `parseKeyCombo` takes. */
export const KEY_COMBO = new RegExp(`^(?:.|(?:(?:${MODIFIER_NAMES.join('|')})\\+)*(?:\\+|[^+]+))$`, 'u');

/** Thrown for a combination whose leading parts are not modifiers; the runner turns it into the action's error. */
export class KeyComboError extends Error {
  constructor(key: string, part: string) {
    super(
      `${JSON.stringify(part)} in ${JSON.stringify(key)} is not a modifier (use ${MODIFIER_NAMES.join(', ')} ` +
        'before the key, joined by "+")',
    );
    this.name = 'KeyComboError';
  }
}

/** `Control+Shift+a` as its modifiers and key; a lone `+` (or a trailing one, `Shift++`) is the plus key. */
export function parseKeyCombo(key: string): { modifiers: KeyInput[]; key: string } {
  if (key.length <= 1) return { modifiers: [], key };
  const parts = key.split('+');
  let last = parts.pop()!;
  if (last === '' && parts.at(-1) === '') {
    parts.pop();
    last = '+';
  }
  const modifiers = parts.map((part) => {
    const modifier = MODIFIERS[part];
    if (modifier === undefined) throw new KeyComboError(key, part);
    return modifier;
  });
  return { modifiers, key: last };
}

/**
 * Why a combination's key is not one the press action can press (a name it does not know, `Entr`, `enter`), with
 * the name it probably meant; undefined when it can. Any single character is a key.
 */
export function unknownKeyReason(combo: string): string | undefined {
  const { key } = parseKeyCombo(combo);
  if (key.length === 1 || KEY_NAMES.has(key)) return undefined;
  const near = nearestKeyName(key);
  if (near !== undefined) return `${JSON.stringify(key)} is not a key name; did you mean ${JSON.stringify(near)}?`;
  return (
    `${JSON.stringify(key)} is not a key name: use a single character or a name as in Playwright (Enter, Tab, ` +
    'Escape, ArrowDown, PageDown, F5, KeyA…)'
  );
}

/** The key name spelled like `key` but for case and at most two letters, the closest first. */
function nearestKeyName(key: string): string | undefined {
  const lower = key.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of KEY_NAMES) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/** The press action: holds the combination's modifiers while the key is pressed, and releases them whatever happens. */
export async function pressKey(page: Page, combo: string): Promise<void> {
  const { modifiers, key } = parseKeyCombo(combo);
  const held: KeyInput[] = [];
  try {
    for (const modifier of modifiers) {
      await page.keyboard.down(modifier);
      held.push(modifier);
    }
    // Beyond printable ASCII (`é`, `ß`) the US layout has no key: the character is sent as typed text, as Playwright
    // does for any single character.
    if (key.length === 1 && key > '~') await page.keyboard.sendCharacter(key);
    else await page.keyboard.press(key as KeyInput);
  } finally {
    for (const modifier of held.reverse()) await page.keyboard.up(modifier).catch(() => undefined);
  }
}

/** In-page: true when no element has the focus (it is on the document's body or root), so typed keys reach no field. */
const NOTHING_FOCUSED = `(() => {
  const active = document.activeElement;
  return active === null || active === document.body || active === document.documentElement;
})()`;

/**
 * The write action: types `text` into the focused element. With nothing focused the keys reach the page itself and
 * no field gets the text: `warnings` says so (a page that takes keys itself, a shortcut, is not an error).
 */
export async function writeText(page: Page, text: string, warnings?: string[]): Promise<void> {
  if (await page.evaluate(NOTHING_FOCUSED)) {
    const shown = text.length > 20 ? `${JSON.stringify(text.slice(0, 20))}…` : JSON.stringify(text);
    warnings?.push(
      `write ${shown}: no element had the focus, so the text was typed into the page itself, not into a field ` +
        '(click the field first).',
    );
  }
  await page.keyboard.type(text);
}
