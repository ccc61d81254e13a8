/**
 * A monitor's `schedule.text` ("every 30 minutes", "hourly", "daily at 9:00", ...) as a five-field cron expression.
 * A documented, closed set of forms: anything else is refused with the list of what to write.
 */

/** The forms `schedule.text` takes, as the refusal lists them. */
export const SCHEDULE_TEXT_FORMS =
  '"every N minutes", "every N hours", "every N days", "every minute", "every hour", "every day", ' +
  '"hourly", "daily", "weekly", "monthly", "daily at 9:00" (or "every day at 9:30pm", "at 09:00"), ' +
  '"weekdays at 9:00", "every monday at 9:00" (any weekday; "at ..." optional, midnight when absent)';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** `H:MM`, `H`, with an optional am/pm, as `[minute, hour]`; undefined when it is not a time of day. */
function timeOfDay(text: string): [number, number] | undefined {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text);
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  const half = match[3];
  if (half) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) return undefined;
  return [minute, hour];
}

/** `at <time>` (or nothing: midnight) after a daily or weekly form. */
function atTime(rest: string | undefined): [number, number] | undefined {
  if (rest === undefined || rest === '') return [0, 0];
  const match = /^at\s+(.+)$/.exec(rest);
  return match ? timeOfDay(match[1]!) : undefined;
}

function everyN(amount: number, unit: string): string | undefined {
  if (!Number.isInteger(amount) || amount < 1) return undefined;
  if (unit.startsWith('minute')) return amount === 1 ? '* * * * *' : amount < 60 ? `*/${amount} * * * *` : undefined;
  if (unit.startsWith('hour')) return amount === 1 ? '0 * * * *' : amount < 24 ? `0 */${amount} * * *` : undefined;
  if (unit.startsWith('day')) return amount === 1 ? '0 0 * * *' : amount < 32 ? `0 0 */${amount} * *` : undefined;
  return undefined;
}

/** The cron expression (minute hour day month weekday) of `text`, or undefined when it is none of the forms. */
export function cronOfText(text: string): string | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const fixed: Record<string, string> = {
    hourly: '0 * * * *',
    daily: '0 0 * * *',
    weekly: '0 0 * * 0',
    monthly: '0 0 1 * *',
  };
  if (fixed[t]) return fixed[t];
  const every = /^every (?:(\d+) )?(minutes?|hours?|days?)$/.exec(t);
  if (every) {
    const amount = every[1] === undefined ? 1 : Number(every[1]);
    return everyN(amount, every[2]!);
  }
  const daily = /^(?:daily|every day|each day)(?: (.+))?$/.exec(t) ?? /^(at .+)$/.exec(t);
  if (daily) {
    const at = atTime(daily[1]);
    return at && `${at[0]} ${at[1]} * * *`;
  }
  const weekdays = /^(?:weekdays|every weekday|on weekdays)(?: (.+))?$/.exec(t);
  if (weekdays) {
    const at = atTime(weekdays[1]);
    return at && `${at[0]} ${at[1]} * * 1-5`;
  }
  const weekly = /^(?:every |on )?([a-z]+?)s?(?: (.+))?$/.exec(t);
  const day = weekly ? WEEKDAYS.indexOf(weekly[1]!) : -1;
  if (weekly && day >= 0) {
    const at = atTime(weekly[2]);
    return at && `${at[0]} ${at[1]} * * ${day}`;
  }
  return undefined;
}
