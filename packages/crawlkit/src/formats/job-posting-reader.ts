/**
 * A job page's posting, read from the schema.org `JobPosting` it declares (JSON-LD first, then microdata: a field
 * JSON-LD lacks is taken from microdata), with no model. A field the page does not declare is left out.
 */
import { parseHtml } from '@crawlkit/extractor';

import type { JobPostingAddress, JobPostingProfile } from '../v2/types.js';
import { amountOf } from './amount.js';
import { findTyped, isObject, list, resolve, schemaName, text } from './json-ld-values.js';
import { readStructuredData, type JsonObject } from './structured-data.js';

const JOB_POSTING = /^(?:https?:\/\/schema\.org\/)?JobPosting$/i;

/** Elements that end a line of a description written in HTML. */
const BLOCK = /^(?:p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|blockquote|pre|dd|dt|dl|header|footer|hr)$/;

interface DomNode {
  type: string;
  name?: string;
  children?: DomNode[];
  data?: string;
}

/** A description as text: its HTML (escaped or not) parsed, entities decoded, a line per block, spaces folded. */
function descriptionText(value: unknown): string | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  let out = '';
  const walk = (node: DomNode): void => {
    if (node.type === 'text') out += node.data ?? '';
    else if (node.type === 'tag' || node.type === 'root') {
      const block = node.name !== undefined && BLOCK.test(node.name);
      if (block) out += '\n';
      for (const child of node.children ?? []) walk(child);
      if (block) out += '\n';
    }
  };
  // A description escaped once more (`&lt;p&gt;`) is HTML too: parsed once, its text is the markup, parsed again.
  let html = raw;
  for (let pass = 0; pass < 2; pass++) {
    out = '';
    walk(parseHtml(html));
    if (!/<\/?[a-z][^>]*>/i.test(out) || pass === 1) break;
    html = out;
  }
  const lines = out
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  return lines.length ? lines.join('\n') : undefined;
}

const ADDRESS_PARTS = ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry'] as const;

/** Each `jobLocation`'s address parts; a place given as one string (or naming no parts) by its `name`. */
function locationsOf(value: unknown): JobPostingAddress[] {
  const locations: JobPostingAddress[] = [];
  for (const place of list(value)) {
    const address = isObject(place) ? (list(place.address)[0] ?? place) : place;
    const parts: JobPostingAddress = {};
    if (isObject(address)) {
      for (const key of ADDRESS_PARTS) {
        const part = text(address[key]);
        if (part !== undefined) parts[key] = part;
      }
    }
    if (Object.keys(parts).length === 0) {
      const name = isObject(address) ? text(isObject(place) ? place.name : undefined) : text(address);
      if (name !== undefined) parts.name = name;
    }
    if (Object.keys(parts).length) locations.push(parts);
  }
  return locations;
}

/** A `MonetaryAmount`'s currency and its `QuantitativeValue` (or plain number). */
function salaryOf(value: unknown): JobPostingProfile['baseSalary'] {
  const amount = list(value).find(isObject);
  if (!amount) {
    const plain = amountOf(value);
    return plain === undefined ? undefined : { value: plain };
  }
  const quantity = list(amount.value)[0];
  const range = isObject(quantity) ? quantity : {};
  const salary = {
    currency: text(amount.currency ?? amount.salaryCurrency)?.toUpperCase(),
    min: amountOf(range.minValue ?? amount.minValue),
    max: amountOf(range.maxValue ?? amount.maxValue),
    value: amountOf(isObject(quantity) ? quantity.value : quantity),
    unit: text(range.unitText ?? amount.unitText),
  };
  const given = Object.entries(salary).filter(([, v]) => v !== undefined);
  return given.length ? Object.fromEntries(given) : undefined;
}

function organizationOf(value: unknown, base: string): JobPostingProfile['hiringOrganization'] {
  const first = list(value)[0];
  const name = text(first);
  const url = isObject(first) ? text(first.url ?? first.sameAs) : undefined;
  if (name === undefined && url === undefined) return undefined;
  return { ...(name !== undefined ? { name } : {}), ...(url !== undefined ? { url: resolve(url, base) } : {}) };
}

function identifierOf(value: unknown): string | undefined {
  const first = list(value)[0];
  return isObject(first) ? text(first.value ?? first['@value'] ?? first.name) : text(first);
}

function booleanOf(value: unknown): boolean | undefined {
  const first = list(value)[0];
  if (typeof first === 'boolean') return first;
  const word = text(first)?.toLowerCase();
  return word === 'true' ? true : word === 'false' ? false : undefined;
}

/** The profile of one `JobPosting` object: the fields it declares. */
function profileOf(node: JsonObject, pageUrl: string): JobPostingProfile {
  const url = text(node.url);
  const types = list(node.employmentType)
    .map((t) => text(t))
    .filter((t): t is string => t !== undefined);
  const locationType = text(node.jobLocationType);
  const profile: JobPostingProfile = {
    title: text(node.title ?? node.name),
    description: descriptionText(node.description),
    datePosted: text(node.datePosted),
    validThrough: text(node.validThrough),
    employmentType: types.length ? types : undefined,
    hiringOrganization: organizationOf(node.hiringOrganization, pageUrl),
    jobLocation: locationsOf(node.jobLocation),
    jobLocationType: locationType,
    remote: locationType !== undefined && /^TELECOMMUTE$/i.test(schemaName(locationType)) ? true : undefined,
    baseSalary: salaryOf(node.baseSalary),
    identifier: identifierOf(node.identifier),
    directApply: booleanOf(node.directApply),
    url: url === undefined ? undefined : resolve(url, pageUrl),
  };
  if (profile.jobLocation?.length === 0) delete profile.jobLocation;
  return profile;
}

/** The job posting a page declares, or undefined when its structured data holds no `JobPosting`. */
export function extractJobPosting(html: string, pageUrl: string): JobPostingProfile | undefined {
  const data = readStructuredData(html);
  const postings = [findTyped(data.jsonLd, JOB_POSTING), findTyped(data.microdata, JOB_POSTING)]
    .filter((node): node is JsonObject => node !== undefined)
    .map((node) => profileOf(node, pageUrl));
  if (postings.length === 0) return undefined;
  const merged: Record<string, unknown> = {};
  for (const posting of postings.reverse()) {
    for (const [key, value] of Object.entries(posting)) if (value !== undefined) merged[key] = value;
  }
  return merged;
}
