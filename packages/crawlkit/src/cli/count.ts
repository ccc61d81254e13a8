/** `1 page`, `2 pages`: a count with its noun, for the CLI's summaries. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
