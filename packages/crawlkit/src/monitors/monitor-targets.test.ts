import { describe, expect, it } from 'vitest';

import { historyTags, monitorTargetsOf, scheduleTargetsOf } from './monitor-targets.js';

const id = '0b7c6f1e-8d1a-4e0f-9f3b-2a1d5c4e6f70';
const targets = [
  { id: 'a', type: 'scrape' as const, urls: ['https://a.example/'] },
  { id: 'b', type: 'crawl' as const, url: 'https://b.example/', scrapeOptions: { formats: ['markdown', 'links'] } },
];
const tagsOf = (from: ReturnType<typeof scheduleTargetsOf>) =>
  from.targets.map((t) => {
    const formats = (t.type === 'crawl' ? (t.scrapeOptions as { formats: unknown[] }) : t).formats as {
      tag?: string;
    }[];
    return formats.at(-1)!.tag;
  });

describe('monitor targets', () => {
  it("track each target's pages under its own tag, shown to the client without the monitor's format", () => {
    const from = scheduleTargetsOf(id, targets);
    expect(from.historyPerTarget).toBe(true);
    expect(tagsOf(from)).toEqual([`monitor:${id}:a`, `monitor:${id}:b`]);
    expect(historyTags(id, from)).toEqual([`monitor:${id}:a`, `monitor:${id}:b`]);
    expect(monitorTargetsOf(id, from)).toEqual([
      { id: 'a', type: 'scrape', urls: ['https://a.example/'] },
      { id: 'b', type: 'crawl', url: 'https://b.example/', scrapeOptions: { formats: ['markdown', 'links'] } },
    ]);
  });

  it('keep the one tag of a monitor made before targets had their own', () => {
    const from = scheduleTargetsOf(id, targets, false);
    expect(from.historyPerTarget).toBeUndefined();
    expect(tagsOf(from)).toEqual([`monitor:${id}`, `monitor:${id}`]);
    expect(historyTags(id, from)).toEqual([`monitor:${id}`]);
    expect(monitorTargetsOf(id, from).map((t) => t.id)).toEqual(['a', 'b']);
    expect(monitorTargetsOf(id, from)[0]).not.toHaveProperty('scrapeOptions');
  });
});
