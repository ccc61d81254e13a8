/** What a cell must have escaped: a backslash, a pipe, a line break. Most cells have none and are taken as they are. */
const SPECIAL = /[\\|\r\n]/;

function cell(value: string | undefined): string {
  if (value === undefined) return '';
  if (!SPECIAL.test(value)) return value.trim();
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>').trim();
}

/** A GFM table of rows (the first is the header), cells escaped: pipes, and line breaks as `<br>`. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  let width = 0;
  for (const row of rows) width = Math.max(width, row.length);
  const line = (row: readonly string[]) => {
    let text = '|';
    for (let i = 0; i < width; i++) text += ` ${cell(row[i])} |`;
    return text;
  };
  const lines = [line(rows[0]!), `|${' --- |'.repeat(width)}`];
  for (let r = 1; r < rows.length; r++) lines.push(line(rows[r]!));
  return lines.join('\n');
}
