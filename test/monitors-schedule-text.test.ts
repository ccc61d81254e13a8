/** `schedule.text` of a monitor: each documented form as the cron expression it runs, anything else refused. */
import { Crawlkit } from 'crawlkit';
import { afterAll, describe, expect, it } from 'vitest';

const ck = new Crawlkit({ store: 'memory', engine: 'http' });

afterAll(async () => {
  await ck.close();
});

/** The cron expression a monitor created with `text` shows, or the refusal's message. */
async function cronOf(text: string): Promise<string> {
  const created = await ck.monitors.create({
    name: text,
    schedule: { text },
    targets: [{ type: 'scrape', urls: ['https://example.com/'] }],
  });
  if (!created.success) return `refused: ${created.error}`;
  await ck.monitors.delete(created.data.id);
  return created.data.schedule.cron;
}

describe('schedule.text', () => {
  const forms: [string, string][] = [
    ['every 30 minutes', '*/30 * * * *'],
    ['every minute', '* * * * *'],
    ['Every 5 Minutes', '*/5 * * * *'],
    ['every hour', '0 * * * *'],
    ['every 2 hours', '0 */2 * * *'],
    ['every day', '0 0 * * *'],
    ['every 3 days', '0 0 */3 * *'],
    ['hourly', '0 * * * *'],
    ['daily', '0 0 * * *'],
    ['weekly', '0 0 * * 0'],
    ['monthly', '0 0 1 * *'],
    ['daily at 9:00', '0 9 * * *'],
    ['every day at 9:30pm', '30 21 * * *'],
    ['at 09:15', '15 9 * * *'],
    ['daily at 12am', '0 0 * * *'],
    ['weekdays at 8:00', '0 8 * * 1-5'],
    ['every monday at 9:00', '0 9 * * 1'],
    ['fridays at 5pm', '0 17 * * 5'],
    ['every sunday', '0 0 * * 0'],
  ];
  for (const [text, cron] of forms) {
    it(`"${text}" is ${cron}`, async () => {
      expect(await cronOf(text)).toBe(cron);
    });
  }

  for (const text of ['every 90 minutes', 'daily at 25:00', 'at 13pm', 'every fortnight', 'twice a day', '']) {
    it(`"${text}" is refused with the forms to write`, async () => {
      const refused = await cronOf(text);
      expect(refused).toContain('refused: `schedule.text`');
      expect(refused).toContain('"every N minutes"');
    });
  }
});
