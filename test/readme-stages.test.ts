/**
 * The README's "How a scrape runs" names every stage of a scrape, in the order they run, and the stages a job adds:
 * they are the names `DEBUG=crawlkit:timing` prints and the `crawlkit:scrape:timings` channel publishes.
 */
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { SCRAPE_STAGES } from '../packages/crawlkit/src/scrape/run-scrape.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(readme.indexOf('### How a scrape runs'), readme.indexOf('The other shapes have one home'));

describe('the README on the stages of a scrape', () => {
  it("lists a direct scrape's stages in the order they run", () => {
    const table = [...section.matchAll(/^\| `([a-z-]+)` +\|/gm)].map((m) => m[1]);
    expect(table).toEqual(SCRAPE_STAGES.map((stage) => stage.name));
  });

  it('names the stages a job adds', () => {
    const sources = ['packages/crawlkit/src/jobs/scrape-stages.ts', 'packages/crawlkit/src/changes/change-stage.ts'];
    const names = sources.flatMap((file) =>
      [...readFileSync(new URL(`../${file}`, import.meta.url), 'utf8').matchAll(/name: '([a-z-]+)'/g)].map((m) => m[1]),
    );
    expect(names.length).toBeGreaterThan(3);
    for (const name of names) expect(section).toContain(`\`${name}\``);
  });
});
