import { describe, expect, it } from 'vitest';

import { pageKind } from './page-kind.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('pageKind (the decode stage)', () => {
  it('tells a PDF by its type or by its magic bytes, whatever the type says', () => {
    expect(pageKind({ contentType: 'application/pdf', body: bytes('x'), undecoded: false })).toBe('pdf');
    expect(pageKind({ contentType: 'application/octet-stream', body: bytes('%PDF-1.7 ...'), undecoded: false })).toBe(
      'pdf',
    );
  });

  it('reads JSON, XML and plain text by their types, and HTML (or no type) as HTML', () => {
    expect(pageKind({ contentType: 'application/ld+json', text: '{}', undecoded: false })).toBe('json');
    expect(pageKind({ contentType: 'application/rss+xml', text: '<rss/>', undecoded: false })).toBe('xml');
    expect(pageKind({ contentType: 'text/plain', text: 'hi', undecoded: false })).toBe('text');
    expect(pageKind({ contentType: 'text/html', text: '<p>hi</p>', undecoded: false })).toBe('html');
    expect(pageKind({ contentType: '', text: '<p>hi</p>', undecoded: false })).toBe('html');
  });

  it('reads an HTML document served as XML as HTML, from its text or its undecoded bytes', () => {
    const xhtml = '<?xml version="1.0"?>\n<!DOCTYPE html><html><body>hi</body></html>';
    expect(pageKind({ contentType: 'application/xml', text: xhtml, undecoded: false })).toBe('html');
    expect(pageKind({ contentType: 'application/xml', body: bytes(xhtml), undecoded: true })).toBe('html');
    expect(pageKind({ contentType: 'application/xml', body: bytes('<feed/>'), undecoded: true })).toBe('xml');
  });

  it('leaves binary content that is not a PDF unsupported, and never takes undecoded text for a PDF', () => {
    expect(pageKind({ contentType: 'image/png', body: bytes('\x89PNG'), undecoded: false })).toBe('unsupported');
    expect(pageKind({ contentType: 'text/html', body: bytes('%PDF-looking text'), undecoded: true })).toBe('html');
  });
});
