/**
 * A PDF's pages as its worker reads them, so that a worker stopped mid-page past the extraction budget (a page that
 * alone runs a second past it: pdf.js reads a page's content in one synchronous run, timers wait) does not lose the
 * pages read before. The worker posts each page on a port of the call's (`PdfOptions.onRead`); the pool reads the
 * port only when it stopped the worker (`receiveMessageOnPort`): a PDF read in time costs the main thread nothing.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

import type { PdfCutRead } from '@crawlkit/documents';
import type { PdfRead } from '@crawlkit/extractor';

import type { ExtractionRequest } from './extraction.js';

/** The main thread's end of a PDF call's ports: one per attempt (a port crosses to one worker only). */
export class PdfProgress {
  #port: MessagePort | undefined;

  /** For a PDF page with an extraction budget run in worker threads; else undefined. */
  static of(request: ExtractionRequest, poolSize: number): PdfProgress | undefined {
    return request.page.kind === 'pdf' && request.budgetMs !== undefined && poolSize > 0
      ? new PdfProgress()
      : undefined;
  }

  /** A fresh port for the worker of the next attempt (the previous attempt's is closed). */
  next(): MessagePort {
    this.close();
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    return port2;
  }

  /**
   * What the stopped worker had read: undefined when it had no page yet. Stopped after its text pass (`done`: while
   * it composed the pages, or chose or read those for OCR), every page is there.
   */
  read(): PdfCutRead | undefined {
    const port = this.#port;
    if (!port) return undefined;
    let head: PdfCutRead['head'] | undefined;
    const pages: PdfCutRead['pages'] = [];
    let done: PdfCutRead['done'];
    let ocr: PdfCutRead['ocr'];
    for (let message = receiveMessageOnPort(port); message; message = receiveMessageOnPort(port)) {
      const read = message.message as PdfRead;
      if ('head' in read) head = read.head;
      else if ('page' in read) pages.push(read.page);
      else if ('done' in read) done = read.done;
      else if ('ocr' in read) ocr = { ...read.ocr, read: [] };
      else ocr?.read.push(read.ocrPage);
    }
    if (!head || pages.length === 0) return undefined;
    return { head, pages, ...(done ? { done } : {}), ...(ocr ? { ocr } : {}) };
  }

  close(): void {
    this.#port?.close();
    this.#port = undefined;
  }
}

/** The worker's end: the port of the call it runs (worker.ts sets it for the call's time). */
let current: MessagePort | undefined;

export function setProgressPort(port: MessagePort | undefined): void {
  current = port;
}

/** `PdfOptions.onRead` for the call this worker runs, when its pool listens. */
export function pdfReadReporter(): ((read: PdfRead) => void) | undefined {
  const port = current;
  return port ? (read) => port.postMessage(read) : undefined;
}
