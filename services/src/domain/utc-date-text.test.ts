import { describe, expect, it } from 'vitest';
import { utcDateText, utcDateTimeText } from './utc-date-text';

// ICU writes a narrow no-break space before AM/PM in some versions: the words are what must match.
const words = (text: string) => text.replace(/\s/g, ' ');
const intlDateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
const intlDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

describe('UTC date text', () => {
  it("writes what Intl's en-US long date and short time write in UTC, at every hour and month", () => {
    const instants = [
      Date.UTC(2026, 0, 1, 0, 0),
      Date.UTC(2026, 10, 28, 20, 5),
      Date.UTC(2024, 1, 29, 12, 0),
      Date.UTC(1999, 11, 31, 23, 59),
      Date.UTC(2030, 6, 4, 11, 59, 59, 999),
      ...Array.from({ length: 24 * 12 }, (_, i) => Date.UTC(2027, i % 12, 1 + (i % 28), i % 24, (i * 7) % 60)),
    ];
    for (const instant of instants) {
      const date = new Date(instant);
      expect(utcDateTimeText(date)).toBe(`${words(intlDateTime.format(date))} UTC`);
      expect(utcDateText(date)).toBe(words(intlDate.format(date)));
    }
  });
});
