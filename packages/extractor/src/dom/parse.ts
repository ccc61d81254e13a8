import type { Document } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/** Parses HTML into a domhandler tree (forgiving, linear, no tree-construction rewrites). */
export function parseHtml(html: string): Document {
  return parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
}
