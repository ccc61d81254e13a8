// Phrase tables: the wordings a rule recognises, one phrase a line, kept apart from the rule that reads them.
//
// A table is a `String.raw` template: one phrase a line (a regular-expression fragment, matched case-insensitively
// unless the table says otherwise), blank lines and lines starting with `//` ignored. A rule turns a table into one
// pattern with `anyOf`, which puts the phrases side by side as alternatives, in the table's order.

/** The phrases of a table: its lines, trimmed, without blank lines and `//` comments. */
export function phraseTable(text: string): readonly string[] {
  const phrases: string[] = [];
  for (const line of text.split('\n')) {
    const phrase = line.trim();
    if (phrase !== '' && !phrase.startsWith('//')) phrases.push(phrase);
  }
  return phrases;
}

/**
 * One pattern matching any phrase of `table`: `before(?:phrase|phrase|…)after`. `before` and `after` anchor or frame
 * the phrases (`^`, a trailing `[.!:]?$`); `flags` default to case-insensitive.
 */
export function anyOf(table: readonly string[], before = '', after = '', flags = 'i'): RegExp {
  return new RegExp(`${before}(?:${table.join('|')})${after}`, flags);
}
