/** EPUB: chapters in spine order, each once (a spine that lists a chapter again does not repeat it). */
import { strFromU8, unzipSync } from 'fflate';

import { officeHtml, officeMarkdown, officeMetadata, parseOffice } from '../office.js';
import type { Converter } from '../types.js';

/** The spine's distinct chapters, read from the package document that `container.xml` names. */
function chapterCount(bytes: Uint8Array): number | undefined {
  try {
    const container = unzipSync(bytes, { filter: (f) => f.name === 'META-INF/container.xml' })[
      'META-INF/container.xml'
    ];
    const opfPath = container && /full-path="([^"]+)"/.exec(strFromU8(container))?.[1];
    if (!opfPath) return undefined;
    const opf = unzipSync(bytes, { filter: (f) => f.name === opfPath })[opfPath];
    if (!opf) return undefined;
    const spine = /<(?:\w+:)?spine[\s\S]*?<\/(?:\w+:)?spine>/.exec(strFromU8(opf))?.[0] ?? '';
    return new Set([...spine.matchAll(/idref="([^"]+)"/g)].map((m) => m[1])).size;
  } catch {
    return undefined;
  }
}

export const epub: Converter = {
  format: 'epub',
  async convert(bytes, options) {
    const { ast, warnings } = await parseOffice(bytes, 'epub', options);
    const metadata = officeMetadata(ast);
    // the guard has bounded the archive: its two small package files are inflated again here
    const chapters = chapterCount(bytes);
    if (chapters !== undefined) metadata.numChapters = chapters;
    const markdown = await officeMarkdown(ast);
    return { format: 'epub', markdown, metadata, warnings, ...(options.html ? { html: await officeHtml(ast) } : {}) };
  },
};
