/**
 * A one-page PDF whose text is set in a Type0 font (Identity-H) with a ToUnicode CMap and no font program: what a
 * producer of Chinese, Japanese, Hebrew or Arabic text writes, less the glyphs (reading the text needs the CMap
 * only). A line marked `visual` is set in the order of its glyphs on the page, left to right, as right-to-left text
 * is; a space is a glyph of its own, so pdf.js splits the line into words there, as it does in real files.
 */
export interface Type0Line {
  text: string;
  visual?: boolean;
}

const hex = (n: number) => n.toString(16).padStart(4, '0');

export function type0Pdf(lines: readonly Type0Line[], leading = 24): Buffer {
  const chars = [...new Set(lines.flatMap((line) => [...line.text]))];
  const cid = new Map(chars.map((c, i) => [c, i + 1]));
  const utf16 = (c: string) => Array.from({ length: c.length }, (_, i) => hex(c.charCodeAt(i))).join('');
  const cmap =
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Type0Test def ' +
    '1 begincodespacerange <0000> <FFFF> endcodespacerange\n' +
    `${chars.length} beginbfchar\n${chars.map((c) => `<${hex(cid.get(c)!)}> <${utf16(c)}>`).join('\n')}\n` +
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end';
  const ops = lines
    .map((line, i) => {
      const glyphs = line.visual ? [...line.text].reverse() : [...line.text];
      return `BT /F1 14 Tf 72 ${740 - i * leading} Td <${glyphs.map((c) => hex(cid.get(c)!)).join('')}> Tj ET`;
    })
    .join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(ops)} >>\nstream\n${ops}\nendstream`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /Type0Test /Encoding /Identity-H /DescendantFonts [6 0 R] ' +
      '/ToUnicode 7 0 R >>',
    '<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Type0Test /CIDSystemInfo << /Registry (Adobe) ' +
      '/Ordering (Identity) /Supplement 0 >> /FontDescriptor 8 0 R /DW 1000 >>',
    `<< /Length ${Buffer.byteLength(cmap)} >>\nstream\n${cmap}\nendstream`,
    '<< /Type /FontDescriptor /FontName /Type0Test /Flags 4 /FontBBox [0 -200 1000 800] /ItalicAngle 0 ' +
      '/Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>',
  ];
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out +=
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'utf8');
}
