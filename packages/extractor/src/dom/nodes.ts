import { Element, Text, type ChildNode } from 'domhandler';

// The parser's elements and text nodes, made without domhandler's class constructors: those define every field of
// the class chain on each node, the source positions (`startIndex`, `endIndex`) and an element's XML namespace
// fields among them, which this parser never sets (they stay null or undefined). A node here holds only the fields
// it uses, in one constructor without the chain of `super` calls: an element is a third smaller and a text node a
// fifth, and the tree lives (and is copied by the collector) for the whole extraction. The nodes are domhandler's
// still: the same prototypes (`instanceof`, the accessors, `cloneNode`); a field left out reads undefined (the
// source positions read null before; nothing reads them). In one process `parseHtml` of the largest dev pages cost a
// tenth less CPU.

/**
 * A slot on each element for what one extraction pass learns about it (`content/measure.ts` keeps there the index of
 * the element's measure): a field of the element is read in a fraction of the time of a `Map` keyed by it, which
 * every rule of main content does for every element it walks.
 */
export const PASS_SLOT = Symbol('crawlkit.pass');

interface ParsedElement {
  [PASS_SLOT]: unknown;
  parent: null;
  prev: null;
  next: null;
  children: ChildNode[];
  name: string;
  attribs: Record<string, string>;
  type: string;
}

function ParsedElement(this: ParsedElement, name: string, attribs: Record<string, string>, children: ChildNode[]) {
  this.parent = null;
  this.prev = null;
  this.next = null;
  this.children = children;
  this.name = name;
  this.attribs = attribs;
  this.type = name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag';
  // made here, so that every element of the parser has the same shape when a pass fills it
  this[PASS_SLOT] = undefined;
}
ParsedElement.prototype = Element.prototype;

interface ParsedText {
  parent: null;
  prev: null;
  next: null;
  data: string;
  type: string;
}

function ParsedText(this: ParsedText, data: string) {
  this.parent = null;
  this.prev = null;
  this.next = null;
  this.data = data;
  this.type = 'text';
}
ParsedText.prototype = Text.prototype;

const ElementOf = ParsedElement as unknown as new (
  name: string,
  attribs: Record<string, string>,
  children: ChildNode[],
) => Element;
const TextOf = ParsedText as unknown as new (data: string) => Text;

/** `new Element(name, attribs, children)`, with only the fields the parser sets. */
export function newElement(name: string, attribs: Record<string, string>, children: ChildNode[]): Element {
  return new ElementOf(name, attribs, children);
}

/** `new Text(data)`, with only the fields the parser sets. */
export function newText(data: string): Text {
  return new TextOf(data);
}
