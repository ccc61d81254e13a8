/**
 * Headings of an OpenDocument text written as paragraphs of a heading style
 * (`<text:p text:style-name="Heading_20_1">`), as LibreOffice saves a Word file whose heading styles carry no outline
 * level: officeparser reads only `<text:h>` as a heading, so without this they became plain paragraphs and the
 * markdown lost its `#` structure.
 */
import { strFromU8, unzipSync } from 'fflate';
import type { OfficeContentNode, OfficeParserAST } from 'officeparser';

/** The style parts: `content.xml` holds the automatic styles (`P1`), `styles.xml` the named ones. */
const STYLE_PARTS = new Set(['content.xml', 'styles.xml']);
const STYLE_TAG = /<style:style\b[^>]*>/g;
/** "Heading 1" (its display name), `Heading_20_1` (its name: a space is `_20_`), `Heading1`. */
const HEADING_NAME = /^heading(?:_20_|\s)?([1-6])$/i;
/** Parent links followed at most: a loop in a damaged file ends here. */
const MAX_DEPTH = 16;

interface ParagraphStyle {
  parent?: string;
  level?: number;
}

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/** The paragraph styles of the document: name, parent, and the level its name or outline level gives. */
function paragraphStyles(bytes: Uint8Array): Map<string, ParagraphStyle> {
  const styles = new Map<string, ParagraphStyle>();
  const parts = unzipSync(bytes, { filter: (file) => STYLE_PARTS.has(file.name) });
  for (const name of ['styles.xml', 'content.xml']) {
    const part = parts[name];
    if (!part) continue;
    for (const [tag] of strFromU8(part).matchAll(STYLE_TAG)) {
      if (attribute(tag, 'style:family') !== 'paragraph') continue;
      const styleName = attribute(tag, 'style:name');
      if (!styleName) continue;
      const outline = Number(attribute(tag, 'style:default-outline-level'));
      const named = HEADING_NAME.exec(attribute(tag, 'style:display-name') ?? styleName)?.[1];
      const level = outline >= 1 && outline <= 6 ? outline : named ? Number(named) : undefined;
      const parent = attribute(tag, 'style:parent-style-name');
      styles.set(styleName, { ...(parent ? { parent } : {}), ...(level ? { level } : {}) });
    }
  }
  return styles;
}

function levelOf(style: string, styles: Map<string, ParagraphStyle>): number | undefined {
  let name: string | undefined = style;
  for (let depth = 0; name !== undefined && depth < MAX_DEPTH; depth++) {
    const found = styles.get(name);
    if (!found) return undefined;
    if (found.level) return found.level;
    name = found.parent;
  }
  return undefined;
}

/**
 * The document's body with its heading-style paragraphs as headings of their level. Only the body's own paragraphs:
 * a paragraph in a table cell or a list item stays as it is.
 */
export function odtHeadings(ast: OfficeParserAST, bytes: Uint8Array): OfficeParserAST {
  const styled = ast.content.some((node) => node.type === 'paragraph' && node.metadata && 'style' in node.metadata);
  if (!styled) return ast;
  const styles = paragraphStyles(bytes);
  const recast = (node: OfficeContentNode): OfficeContentNode => {
    if (node.type !== 'paragraph') return node;
    const style = (node.metadata as { style?: unknown } | undefined)?.style;
    const level = typeof style === 'string' ? levelOf(style, styles) : undefined;
    if (level === undefined || !node.text?.trim()) return node;
    return { ...node, type: 'heading', metadata: { ...node.metadata, level } };
  };
  return { ...ast, content: ast.content.map(recast) };
}
