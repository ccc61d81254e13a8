// The generated page of bench/big-page-memory.ts: one large table (generated, never committed: 13 MB by default).

/** A page of one table of `mb` MB: a header row and rows of six cells (numbers, words, a link), as listings have. */
export function bigTablePage(mb: number): string {
  const row = (i: number) =>
    `<tr><td>${i}</td><td>Item number ${i}</td><td>${(i * 7919) % 100000}</td><td>${i % 2 ? 'in stock' : 'sold out'}` +
    `</td><td><a href="/items/${i}">details</a></td><td>${(i * 0.37).toFixed(2)} EUR</td></tr>\n`;
  const parts = [
    '<!doctype html><html><head><meta charset="utf-8"><title>Inventory</title></head><body><h1>Inventory</h1>',
    '<table><thead><tr><th>#</th><th>Name</th><th>Code</th><th>Stock</th><th>Link</th><th>Price</th></tr></thead><tbody>\n',
  ];
  let size = parts.join('').length;
  for (let i = 0; size < mb * 1e6; i++) {
    const r = row(i);
    parts.push(r);
    size += r.length;
  }
  parts.push('</tbody></table></body></html>');
  return parts.join('');
}
