/**
 * The structured data a page declares about itself, read from its HTML: JSON-LD blocks, microdata items and
 * OpenGraph/`product:` meta tags. Microdata items come out in the JSON-LD form (`@type`, one key per `itemprop`), so
 * that one reader maps both.
 */
import { parseHtml, withCents } from '@crawlkit/extractor';

/** A node of the parsed page (domhandler's shape, read structurally). */
interface DomNode {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  data?: string;
}

export type JsonObject = Record<string, unknown>;

export interface StructuredData {
  /** Every object of the page's JSON-LD blocks (arrays and `@graph` flattened, nested objects kept in place). */
  jsonLd: JsonObject[];
  /** The top-level microdata items, as JSON-LD objects. */
  microdata: JsonObject[];
  /** `og:*`, `product:*` and `twitter:*` meta tags: each key's values in page order. */
  meta: Map<string, string[]>;
  /** The `<title>` text. */
  title?: string;
}

function isElement(node: DomNode): boolean {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

/** The text of `node`; a price's cents drawn in `<sup>` (`$19<sup>99</sup>`) read as cents (`$19.99`). */
function textOf(node: DomNode): string {
  let text = '';
  const stack: DomNode[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    if (current.type === 'text') text += current.data ?? '';
    else if (current.name === 'sup' && current.children?.every((child) => child.type === 'text')) {
      const sup = current.children.map((child) => child.data ?? '').join('');
      text = withCents(text, sup) ?? text + sup;
    } else if (current.children)
      for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
  }
  return text;
}

function flatten(value: unknown, into: JsonObject[]): void {
  if (Array.isArray(value)) for (const item of value) flatten(item, into);
  else if (value && typeof value === 'object') {
    const object = value as JsonObject;
    into.push(object);
    if (Array.isArray(object['@graph'])) flatten(object['@graph'], into);
  }
}

/** The value of an `itemprop` element (the microdata rules of the HTML standard). */
function propertyValue(node: DomNode): string {
  const a = node.attribs ?? {};
  switch (node.name) {
    case 'meta':
      return a.content ?? '';
    case 'a':
    case 'area':
    case 'link':
      return a.href ?? '';
    case 'img':
    case 'audio':
    case 'video':
    case 'source':
    case 'embed':
    case 'iframe':
      return a.src ?? '';
    case 'object':
      return a.data ?? '';
    case 'time':
      return a.datetime ?? textOf(node).trim();
    case 'data':
    case 'meter':
      return a.value ?? '';
    default:
      return a.content ?? textOf(node).replace(/\s+/g, ' ').trim();
  }
}

function addProperty(item: JsonObject, names: string, value: unknown): void {
  for (const name of names.split(/\s+/).filter(Boolean)) {
    const key = name.replace(/^https?:\/\/schema\.org\//i, '');
    const prior = item[key];
    item[key] = prior === undefined ? value : Array.isArray(prior) ? [...(prior as unknown[]), value] : [prior, value];
  }
}

/** A microdata item as a JSON-LD object: its type, and each property under its name (nested items as objects). */
function microdataItem(element: DomNode): JsonObject {
  const item: JsonObject = {};
  const type = element.attribs?.itemtype;
  if (type) item['@type'] = type.split(/\s+/).map((t) => t.replace(/^https?:\/\/schema\.org\//i, ''));
  const stack = [...(element.children ?? [])].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    const attribs = node.attribs ?? {};
    const prop = attribs.itemprop;
    const scoped = 'itemscope' in attribs;
    if (prop) addProperty(item, prop, scoped ? microdataItem(node) : propertyValue(node));
    // A nested item owns what is inside it.
    if (!scoped && node.children) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return item;
}

/** Reads the page's JSON-LD, microdata and meta tags in one walk of its tree. */
export function readStructuredData(html: string): StructuredData {
  const root = parseHtml(html) as unknown as DomNode;
  const data: StructuredData = { jsonLd: [], microdata: [], meta: new Map() };
  const stack: { node: DomNode; inItem: boolean }[] = [{ node: root, inItem: false }];
  while (stack.length) {
    const { node, inItem } = stack.pop()!;
    const attribs = node.attribs ?? {};
    let itemHere = inItem;
    if (isElement(node)) {
      if (node.name === 'script' && /ld\+json/i.test(attribs.type ?? '')) {
        try {
          flatten(JSON.parse(textOf(node)), data.jsonLd);
        } catch {
          // A broken block is skipped: the others still count.
        }
        continue;
      }
      if (node.name === 'meta') {
        const key = (attribs.property ?? attribs.name ?? '').toLowerCase();
        if (/^(og|product|twitter):/.test(key) && attribs.content !== undefined) {
          const values = data.meta.get(key) ?? [];
          values.push(attribs.content);
          data.meta.set(key, values);
        }
      }
      if (node.name === 'title' && data.title === undefined) data.title = textOf(node).trim();
      if ('itemscope' in attribs && !inItem && attribs.itemprop === undefined) {
        data.microdata.push(microdataItem(node));
        itemHere = true;
      }
    }
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i]!, inItem: itemHere });
  }
  return data;
}
