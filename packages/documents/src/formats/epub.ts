/** EPUB: chapters in spine order, each once (a spine that lists a chapter again does not repeat it). */
import { DocumentError } from '../errors.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { guardOffice, officeHtml, officeMarkdown, officeMetadata, parseOffice } from '../office.js';
import type { Converter } from '../types.js';
import type { PartNames, PartTexts } from '../zip/parts.js';
import { ENCRYPTION, encryptedContent } from './epub-encryption.js';

const CONTAINER = 'META-INF/container.xml';
/**
 * The container, the package documents it may name (`*.opf`) and the list of encrypted parts, read as text in the zip
 * guard's pass.
 */
const PACKAGE_PARTS: PartNames = (name) =>
  name === CONTAINER || name === ENCRYPTION || name.toLowerCase().endsWith('.opf');

/** The package document's name in the archive, as `container.xml` gives it. */
const opfPathOf = (parts: PartTexts): string | undefined => /full-path="([^"]+)"/.exec(parts[CONTAINER] ?? '')?.[1];

/** The spine's entries (manifest ids, in reading order), read from the package document `container.xml` names. */
function spineOf(parts: PartTexts): string[] | undefined {
  const opfPath = opfPathOf(parts);
  const opf = opfPath === undefined ? undefined : parts[opfPath];
  if (opf === undefined) return undefined;
  const spine = /<(?:\w+:)?spine[\s\S]*?<\/(?:\w+:)?spine>/.exec(opf)?.[0] ?? '';
  return [...spine.matchAll(/idref="([^"]+)"/g)].map((m) => m[1]!);
}

export const epub: Converter = {
  format: 'epub',
  async convert(bytes, options) {
    // the guard bounds the archive, and keeps its two small package files as it inflates them
    const parts = await guardOffice(bytes, 'epub', options, PACKAGE_PARTS);
    const encrypted = encryptedContent(parts, opfPathOf(parts));
    if (encrypted.length > 0) {
      throw new DocumentError(
        'SCRAPE_DOCUMENT_ENCRYPTED',
        `The EPUB's text is encrypted (DRM: META-INF/encryption.xml lists ${encrypted.length} of its content ` +
          `documents, ${encrypted[0]} first), so it cannot be read. Use a copy without DRM.`,
      );
    }
    const spine = spineOf(parts);
    const max = options.maxSpineItems ?? DEFAULT_LIMITS.maxSpineItems;
    if (spine && spine.length > max) {
      const chapters = new Set(spine).size;
      throw new DocumentError(
        'SCRAPE_DOCUMENT_TOO_LARGE',
        `The EPUB's spine lists ${spine.length} entries for ${chapters} chapters, more than the ${max} it may ` +
          (chapters < spine.length ? 'list (a spine that loops over its chapters).' : 'list.'),
      );
    }
    const { ast, warnings } = await parseOffice(bytes, 'epub', options, { guarded: parts });
    const metadata = officeMetadata(ast);
    if (spine) metadata.numChapters = new Set(spine).size;
    const markdown = await officeMarkdown(ast, 'epub', { deadline: options.deadline });
    return {
      format: 'epub',
      markdown,
      metadata,
      warnings,
      ...(options.html ? { html: await officeHtml(ast, 'epub', options.deadline) } : {}),
    };
  },
};
