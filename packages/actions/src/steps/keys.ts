import type { KeyInput, Page } from 'puppeteer-core';

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

/** The press action: holds the combination's modifiers while the key is pressed, and releases them whatever happens. */
export async function pressKey(page: Page, combo: string): Promise<void> {
  const { modifiers, key } = parseKeyCombo(combo);
  const held: KeyInput[] = [];
  try {
    for (const modifier of modifiers) {
      await page.keyboard.down(modifier);
      held.push(modifier);
    }
    await page.keyboard.press(key as KeyInput);
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
