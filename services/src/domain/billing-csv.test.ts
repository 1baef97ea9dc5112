import { describe, expect, it } from 'vitest';
import { billingCsv, monthStart } from './billing-csv';

describe('the billing CSV', () => {
  it("writes each entry's local time in the chosen time zone", () => {
    const csv = billingCsv(
      [
        {
          entryId: '01JAAAAAAAAAAAAAAAAAAAAAAA',
          kind: 'payment',
          occurredAt: '2026-10-31T23:30:00.000Z',
          orderNumber: 12,
          jobTypeName: 'HDR',
          photoCount: 3,
          amountCents: 2400,
        },
      ],
      'Europe/Berlin',
    );
    expect(csv.split('\r\n')[1]).toBe(
      '2026-11-01 00:30,Europe/Berlin,Payment,12,,HDR,3,24.00,,01JAAAAAAAAAAAAAAAAAAAAAAA',
    );
  });

  it('starts a month at local midnight on the 1st, across daylight saving changes', () => {
    expect(monthStart(2026, 11, 'Europe/Berlin').toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(monthStart(2026, 4, 'Europe/Berlin').toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(monthStart(2026, 3, 'America/New_York').toISOString()).toBe('2026-03-01T05:00:00.000Z');
    expect(monthStart(2026, 1, 'UTC').toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});
