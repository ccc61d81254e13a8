const GENERIC = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'math',
  'emoji',
  'fangsong',
  '-apple-system',
  'blinkmacsystemfont',
  'apple color emoji',
  'segoe ui emoji',
  'segoe ui symbol',
  'noto color emoji',
  'inherit',
  'initial',
]);

/** The families of a computed `font-family`, unquoted, in order. */
export function parseFontStack(stack: string): string[] {
  // Family names with a comma inside quotes do not occur in practice; splitting on commas is enough.
  return stack
    .split(',')
    .map((part) =>
      part
        .trim()
        .replace(/^(["'])(.*)\1$/, '$2')
        .trim(),
    )
    .filter(Boolean);
}

/**
 * A family name as a person would write it: build-tool hashes removed (`__Inter_d65c78` → `Inter`,
 * `Roboto_Mono-a1b2c3` → `Roboto Mono`), fallback faces dropped (undefined), generic names kept as they are.
 */
export function cleanFontName(name: string): string | undefined {
  if (/fallback/i.test(name)) return undefined;
  let out = name.replace(/^_+/, '');
  out = out.replace(/[_-](?=[0-9a-f]*\d)[0-9a-f]{5,}$/i, '');
  out = out.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  return out || undefined;
}

export const isGenericFont = (name: string) => GENERIC.has(name.toLowerCase());

/** The family a stack is meant to show: its first non-generic, cleaned name (else its first generic one). */
export function primaryFamily(stack: string): string | undefined {
  const names = parseFontStack(stack);
  for (const name of names) {
    if (isGenericFont(name)) continue;
    const clean = cleanFontName(name);
    if (clean) return clean;
  }
  return names[0];
}

/** The stack with hashed names cleaned and fallback faces dropped. */
export function cleanStack(stack: string): string[] {
  const out: string[] = [];
  for (const name of parseFontStack(stack)) {
    const clean = isGenericFont(name) ? name : cleanFontName(name);
    if (clean && !out.includes(clean)) out.push(clean);
  }
  return out;
}
