import { sizeText } from '@crawlkit/options/size-text';
import { Unzip, UnzipInflate } from 'fflate';

import { DocumentError } from '../errors.js';
import { readZipDirectory } from './directory.js';
import { NO_PARTS, PartText, type PartNames, type PartTexts } from './parts.js';

export interface ZipLimits {
  maxEntries: number;
  maxExpandedBytes: number;
  maxRatio: number;
  /** Cells of a spreadsheet, counted by their start tag in the parts that hold them; more than `max` is refused. */
  cells?: { part: RegExp; tag: string; max: number };
}

/** Inflated bytes below which the ratio is not checked: small files of repetitive XML are ordinary. */
const RATIO_FLOOR = 16 * 1024 * 1024;
/** Compressed bytes handed to the inflater at a time: the most one step can inflate past a cap is ~1,000 times it. */
const CHUNK = 16 * 1024;
/** Parts read as XML (OOXML, OpenDocument, EPUB's package and chapters). */
const XML_PART = /\.(xml|rels|opf|ncx|xhtml|html?|svg)$/i;
const ENTITY = Buffer.from('<!ENTITY');

function tooLarge(message: string): DocumentError {
  return new DocumentError('SCRAPE_DOCUMENT_TOO_LARGE', message);
}

/**
 * Checks a zip-based document before any library reads it: its entries (declared by the central directory, then
 * counted as they come), the bytes they inflate to and the ratio to the file's size, both counted while inflating
 * and stopped at the cap (a declared size is the writer's word, so it is never trusted alone); and every XML part
 * for entity declarations (`<!ENTITY`: entity expansion and external entities), which no office writer emits.
 * Nothing inflated is kept but the parts `keep` names, answered as text (`parts.ts`): the ones a converter reads
 * itself, inflated here once rather than again after the guard.
 */
export function guardZip(bytes: Uint8Array, limits: ZipLimits, keep: PartNames = NO_PARTS): Promise<PartTexts> {
  const entries = readZipDirectory(bytes, limits.maxEntries);
  if (entries) {
    if (entries.length > limits.maxEntries) {
      throw tooLarge(`The document holds more than ${limits.maxEntries} zip entries (the limit of entries).`);
    }
    const declared = entries.reduce((sum, e) => sum + e.declaredSize, 0);
    if (declared > limits.maxExpandedBytes) {
      throw tooLarge(
        `The document declares ${sizeText(declared)} of content once inflated, more than its ${sizeText(limits.maxExpandedBytes)} limit.`,
      );
    }
  }
  return new Promise((resolve, reject) => {
    const kept: Record<string, string> = {};
    let settled = false;
    let count = 0;
    let total = 0;
    let cells = 0;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error instanceof DocumentError ? error : parseError(error));
    };
    const unzip = new Unzip((file) => {
      if (settled) return;
      if (++count > limits.maxEntries) {
        fail(tooLarge(`The document holds more than ${limits.maxEntries} zip entries (the limit of entries).`));
        return;
      }
      const xml = XML_PART.test(file.name);
      const cellTag = limits.cells?.part.test(file.name) ? Buffer.from(limits.cells.tag) : undefined;
      let tail = Buffer.alloc(0);
      // the size the entry declares, within the caps (a declaration is the writer's word: never trusted alone)
      const size = Math.min(file.originalSize ?? 0, limits.maxExpandedBytes, bytes.length * limits.maxRatio);
      const text = keep(file.name) ? new PartText(size) : undefined;
      file.ondata = (error, chunk, final) => {
        if (settled) return;
        if (error) return fail(error);
        total += chunk.length;
        if (total > limits.maxExpandedBytes) {
          return fail(tooLarge(`The document inflates to more than ${sizeText(limits.maxExpandedBytes)} (the limit).`));
        }
        if (total > RATIO_FLOOR && total > bytes.length * limits.maxRatio) {
          return fail(
            tooLarge(
              `The document inflates to more than ${limits.maxRatio} times its size (${sizeText(bytes.length)} to ` +
                `over ${sizeText(total)}): a zip bomb.`,
            ),
          );
        }
        if (xml) {
          const window = Buffer.concat([tail, chunk]);
          if (window.indexOf(ENTITY) !== -1 || window.indexOf('<!entity') !== -1) {
            return fail(
              new DocumentError(
                'SCRAPE_DOCUMENT_XML_ENTITIES',
                `The document's part ${file.name} declares XML entities (<!ENTITY>), which are refused: entity ` +
                  'expansion and external entities are not read.',
              ),
            );
          }
          if (cellTag) {
            // a tag cannot lie wholly in the tail kept from the last chunk (shorter than it): none is counted twice
            for (let at = window.indexOf(cellTag); at !== -1; at = window.indexOf(cellTag, at + 1)) cells++;
            if (cells > limits.cells!.max) {
              return fail(
                tooLarge(
                  `The spreadsheet holds more than ${limits.cells!.max} cells (the limit of cells read), empty ` +
                    'ones included.',
                ),
              );
            }
          }
          tail = window.subarray(Math.max(0, window.length - Math.max(ENTITY.length, cellTag?.length ?? 0) + 1));
        }
        const whole = text?.push(chunk, final);
        if (whole !== undefined) kept[file.name] = whole;
      };
      try {
        file.start();
      } catch (error) {
        fail(error);
      }
    });
    unzip.register(UnzipInflate);
    try {
      for (let at = 0; at < bytes.length && !settled; at += CHUNK) {
        const end = Math.min(at + CHUNK, bytes.length);
        unzip.push(bytes.subarray(at, end), end === bytes.length);
      }
    } catch (error) {
      fail(error);
    }
    if (!settled) {
      settled = true;
      if (count === 0) reject(parseError(new Error('no zip entries')));
      else resolve(kept);
    }
  });
}

function parseError(cause: unknown): DocumentError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new DocumentError(
    'SCRAPE_DOCUMENT_PARSE_ERROR',
    `The document is not a readable zip archive (${reason}): it is damaged or cut short.`,
    {
      cause,
    },
  );
}
