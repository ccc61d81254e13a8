declare module 'word-extractor' {
  interface ExtractedDocument {
    getBody(): string;
    getFootnotes(): string;
    getEndnotes(): string;
  }
  export default class WordExtractor {
    extract(source: string | Buffer): Promise<ExtractedDocument>;
  }
}

/** word-extractor's compound-file reader, for the streams it does not read itself (`formats/doc-info.ts`). */
declare module 'word-extractor/lib/ole-compound-doc.js' {
  export default class OleCompoundDoc {
    constructor(reader: unknown);
    read(): Promise<OleCompoundDoc>;
    stream(name: string): NodeJS.ReadableStream;
  }
}
declare module 'word-extractor/lib/buffer-reader.js' {
  export default class BufferReader {
    constructor(buffer: Buffer);
  }
}
