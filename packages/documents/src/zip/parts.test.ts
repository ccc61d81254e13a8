/**
 * The one zip reader: the parts a converter reads itself come out of the guard's pass as text, the same as reading
 * them alone, and only those.
 */
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { guardZip } from './guard.js';
import { zipParts } from './parts.js';

const LIMITS = { maxEntries: 100, maxExpandedBytes: 64 * 1024 * 1024, maxRatio: 1000 };
// long enough to be inflated in many chunks, with characters of several UTF-8 widths across their edges
const body = `<w:document>${'<w:p><w:t>Clause § 5 — “delivery” 配送 🚚</w:t></w:p>'.repeat(20_000)}</w:document>`;
const archive = zipSync({
  'word/document.xml': strToU8(body),
  'word/styles.xml': strToU8('<w:styles/>'),
  'docProps/core.xml': strToU8('<cp:coreProperties/>'),
  'word/empty.xml': new Uint8Array(0),
});

describe('the parts of an archive read as text', () => {
  it('are kept by the guard as it inflates them, as reading them alone gives them, and no others', async () => {
    const wanted = (name: string) => name.startsWith('word/');
    const kept = await guardZip(archive, LIMITS, wanted);
    expect(Object.keys(kept).sort()).toEqual(['word/document.xml', 'word/empty.xml', 'word/styles.xml']);
    expect(kept['word/document.xml']).toBe(body);
    expect(kept['word/empty.xml']).toBe('');
    expect(kept).toEqual(zipParts(archive, wanted));
  });

  it('keeps nothing when nothing is asked', async () => {
    expect(await guardZip(archive, LIMITS)).toEqual({});
  });

  it('reads a part whose entry declares less than it holds', async () => {
    const lying = new Uint8Array(archive);
    // the local header's uncompressed size of the first entry (word/document.xml), set to 10 bytes
    new DataView(lying.buffer).setUint32(22, 10, true);
    const kept = await guardZip(lying, LIMITS, (name) => name === 'word/document.xml');
    expect(kept['word/document.xml']).toBe(body);
  });
});
