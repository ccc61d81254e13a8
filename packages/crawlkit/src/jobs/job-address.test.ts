import { describe, expect, it } from 'vitest';

import { jobAddress, parseJobReference } from './job-address.js';

const ID = '0191f0a4-1234-7000-8000-00000000abcd';

describe('job addresses', () => {
  it('are crawlkit:// addresses in-process and the server address over HTTP', () => {
    expect(jobAddress('crawl', ID)).toBe(`crawlkit://v2/crawl/${ID}`);
    expect(jobAddress('batch', ID, { skip: 100, limit: 50 })).toBe(
      `crawlkit://v2/batch/scrape/${ID}?skip=100&limit=50`,
    );
    expect(jobAddress('crawl', ID, { skip: 1 }, 'http://127.0.0.1:3002')).toBe(
      `http://127.0.0.1:3002/v2/crawl/${ID}?skip=1`,
    );
  });

  it('read back as the id with skip and limit, from either kind of address', () => {
    expect(parseJobReference(ID.toUpperCase())).toEqual({ id: ID });
    expect(parseJobReference(`crawlkit://v2/crawl/${ID}?skip=100&limit=10`)).toEqual({ id: ID, skip: 100, limit: 10 });
    expect(parseJobReference(`http://localhost:3002/v2/batch/scrape/${ID}?skip=5`)).toEqual({ id: ID, skip: 5 });
    expect(parseJobReference(`https://proxy.example/firecrawl/v2/crawl/${ID}`)).toEqual({ id: ID });
    for (const bad of ['nope', `ftp://x/v2/crawl/${ID}`, `http://x/v2/map/${ID}`, 'http://x/v2/crawl/123']) {
      expect(parseJobReference(bad)).toBeUndefined();
    }
  });
});
