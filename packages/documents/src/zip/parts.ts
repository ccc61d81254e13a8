/**
 * The parts of a zip archive this package reads itself, beside officeparser (a DOCX's body for its comments, a
 * workbook's sheet states, an OpenDocument's styles, an EPUB's package), as text: the one home of inflating them. The
 * zip guard (`guard.ts`) keeps them while it inflates every entry to count them anyway, so that a converter inflates
 * none of them a second time; `zipParts` reads them alone where no guard ran (detection).
 */
import { unzipSync } from 'fflate';

/** Which parts to read, by their name in the archive. */
export type PartNames = (name: string) => boolean;

/** Parts read as text, by name; a part the archive does not hold is absent. */
export type PartTexts = Readonly<Record<string, string>>;

/** No part: what a converter that reads none of its own asks for. */
export const NO_PARTS: PartNames = () => false;

const decoder = new TextDecoder();

/**
 * The text of a part inflated in chunks (UTF-8, as every XML part of these formats is written): the chunks are copied
 * into one buffer of the size the archive declares (grown if the declaration was short), decoded once at the end.
 */
export class PartText {
  #bytes: Uint8Array;
  #length = 0;

  constructor(declaredSize = 0) {
    this.#bytes = new Uint8Array(Math.max(0, declaredSize));
  }

  /** Adds a chunk; answers the part's whole text with its last one. */
  push(chunk: Uint8Array, final: boolean): string | undefined {
    if (this.#length + chunk.length > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(this.#length + chunk.length, this.#bytes.length * 2));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    this.#bytes.set(chunk, this.#length);
    this.#length += chunk.length;
    if (!final) return undefined;
    const text = decoder.decode(this.#bytes.subarray(0, this.#length));
    this.#bytes = new Uint8Array(0);
    return text;
  }
}

/** The named parts of an archive, inflated once, as text. Throws fflate's error for an archive it cannot read. */
export function zipParts(bytes: Uint8Array, wanted: PartNames): PartTexts {
  const read = unzipSync(bytes, { filter: (file) => wanted(file.name) });
  return Object.fromEntries(Object.entries(read).map(([name, data]) => [name, decoder.decode(data)]));
}
