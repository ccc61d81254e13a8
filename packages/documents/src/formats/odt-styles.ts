/**
 * What an OpenDocument text's styles say that officeparser does not read from them:
 * - headings written as paragraphs of a heading style (`<text:p text:style-name="Heading_20_1">`), as LibreOffice
 *   saves a Word file whose heading styles carry no outline level: officeparser reads only `<text:h>` as a heading,
 *   so without this they became plain paragraphs and the markdown lost its `#` structure;
 * - whether a list is bulleted or numbered at its own level: officeparser calls a list style numbered when any of its
 *   ten levels is, and a Word bullet list saved by LibreOffice (`WWNum1`: bullets on levels 1 to 9, a number on the
 *   10th) came out `1.` `2.`.
 */
import type { OfficeContentNode, OfficeParserAST } from 'officeparser';

import { attribute } from '../xml-text.js';
import type { PartTexts } from '../zip/parts.js';

/** The style parts: `content.xml` holds the automatic styles (`P1`), `styles.xml` the named ones. */
export const STYLE_PARTS = (name: string): boolean => name === 'content.xml' || name === 'styles.xml';
const STYLE_TAG = /<style:style\b[^>]*>/g;
/** A list style and its levels' styles (`text:list-level-style-bullet`, `-number`, `-image`). */
const LIST_STYLE = /<text:list-style\b[^>]*>[\s\S]*?<\/text:list-style>/g;
const LIST_LEVEL = /<text:list-level-style-(bullet|number|image)\b[^>]*>/g;
/** "Heading 1" (its display name), `Heading_20_1` (its name: a space is `_20_`), `Heading1`. */
const HEADING_NAME = /^heading(?:_20_|\s)?([1-6])$/i;
/** Parent links followed at most: a loop in a damaged file ends here. */
const MAX_DEPTH = 16;

interface ParagraphStyle {
  parent?: string;
  level?: number;
}

type ListKind = 'ordered' | 'unordered';

interface Styles {
  paragraphs: Map<string, ParagraphStyle>;
  /** Each list style's kind by level (1 to 10). */
  lists: Map<string, Map<number, ListKind>>;
}

/**
 * The document's paragraph styles (name, parent, and the level its name or outline level gives) and list styles. A
 * numbered level without a number format (`style:num-format=""`) shows no number, and is left to officeparser.
 */
function readStyles(parts: PartTexts): Styles {
  const paragraphs = new Map<string, ParagraphStyle>();
  const lists = new Map<string, Map<number, ListKind>>();
  for (const name of ['styles.xml', 'content.xml']) {
    const xml = parts[name];
    if (xml === undefined) continue;
    for (const [style] of xml.matchAll(LIST_STYLE)) {
      const styleName = attribute(style.slice(0, style.indexOf('>') + 1), 'style:name');
      if (!styleName) continue;
      const levels = new Map<number, ListKind>();
      for (const [tag, kind] of style.matchAll(LIST_LEVEL)) {
        const level = Number(attribute(tag, 'text:level'));
        if (kind === 'number' && !attribute(tag, 'style:num-format')) continue;
        levels.set(level, kind === 'number' ? 'ordered' : 'unordered');
      }
      lists.set(styleName, levels);
    }
    for (const [tag] of xml.matchAll(STYLE_TAG)) {
      if (attribute(tag, 'style:family') !== 'paragraph') continue;
      const styleName = attribute(tag, 'style:name');
      if (!styleName) continue;
      const outline = Number(attribute(tag, 'style:default-outline-level'));
      const named = HEADING_NAME.exec(attribute(tag, 'style:display-name') ?? styleName)?.[1];
      const level = outline >= 1 && outline <= 6 ? outline : named ? Number(named) : undefined;
      const parent = attribute(tag, 'style:parent-style-name');
      paragraphs.set(styleName, { ...(parent ? { parent } : {}), ...(level ? { level } : {}) });
    }
  }
  return { paragraphs, lists };
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
 * The document's body with its heading-style paragraphs as headings of their level, and its list items bulleted or
 * numbered as their list style says at their level. Only the body's own paragraphs: a paragraph in a table cell stays
 * as it is.
 */
export function odtStyled(ast: OfficeParserAST, parts: PartTexts): OfficeParserAST {
  const styled = ast.content.some(
    (node) => (node.type === 'paragraph' && node.metadata && 'style' in node.metadata) || node.type === 'list',
  );
  if (!styled) return ast;
  const styles = readStyles(parts);
  const recast = (node: OfficeContentNode): OfficeContentNode => {
    if (node.type === 'list') return listKind(node, styles);
    if (node.type !== 'paragraph') return node;
    const style = (node.metadata as { style?: unknown } | undefined)?.style;
    const level = typeof style === 'string' ? levelOf(style, styles.paragraphs) : undefined;
    if (level === undefined || !node.text?.trim()) return node;
    return { ...node, type: 'heading', metadata: { ...node.metadata, level } };
  };
  return { ...ast, content: ast.content.map(recast) };
}

/** A list item's kind from its list style (officeparser's `listId` names it) at its nesting level. */
function listKind(node: OfficeContentNode, styles: Styles): OfficeContentNode {
  const metadata = node.metadata as { listId?: unknown; indentation?: unknown; listType?: unknown } | undefined;
  if (typeof metadata?.listId !== 'string') return node;
  const depth = typeof metadata.indentation === 'number' ? metadata.indentation : 0;
  const kind = styles.lists.get(metadata.listId)?.get(depth + 1);
  if (kind === undefined || kind === metadata.listType) return node;
  return { ...node, metadata: { ...node.metadata, listType: kind } } as OfficeContentNode;
}
