/** EPUB: chapters in spine order, each once (a spine that lists a chapter again does not repeat it). */
import { strFromU8, unzipSync } from 'fflate';

import { DocumentError } from '../errors.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { guardOffice, officeHtml, officeMarkdown, officeMetadata, parseOffice } from '../office.js';
import type { Converter } from '../types.js';

/** The spine's entries (manifest ids, in reading order), read from the package document `container.xml` names. */
function spineOf(bytes: Uint8Array): string[] | undefined {
  try {
    const container = unzipSync(bytes, { filter: (f) => f.name === 'META-INF/container.xml' })[
      'META-INF/container.xml'
    ];
    const opfPath = container && /full-path="([^"]+)"/.exec(strFromU8(container))?.[1];
    if (!opfPath) return undefined;
    const opf = unzipSync(bytes, { filter: (f) => f.name === opfPath })[opfPath];
    if (!opf) return undefined;
    const spine = /<(?:\w+:)?spine[\s\S]*?<\/(?:\w+:)?spine>/.exec(strFromU8(opf))?.[0] ?? '';
    return [...spine.matchAll(/idref="([^"]+)"/g)].map((m) => m[1]!);
  } catch {
    return undefined;
  }
}

export const epub: Converter = {
  format: 'epub',
  async convert(bytes, options) {
    await guardOffice(bytes, 'epub', options);
    // the guard has bounded the archive: its two small package files are inflated again here
    const spine = spineOf(bytes);
    const max = options.maxSpineItems ?? DEFAULT_LIMITS.maxSpineItems;
    if (spine && spine.length > max) {
      const chapters = new Set(spine).size;
      throw new DocumentError(
        'SCRAPE_DOCUMENT_TOO_LARGE',
        `The EPUB's spine lists ${spine.length} entries for ${chapters} chapters, more than the ${max} it may ` +
          (chapters < spine.length ? 'list (a spine that loops over its chapters).' : 'list.'),
      );
    }
    const { ast, warnings } = await parseOffice(bytes, 'epub', options, true);
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
