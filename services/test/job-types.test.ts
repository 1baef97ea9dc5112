import { describe, expect, it } from 'vitest';
import { aPhotographer, as } from './support';

describe('GET /api/orders/job-types', () => {
  it('lists the five services with their prices in cents', async () => {
    const account = await aPhotographer();

    const response = await as(account).get('/api/orders/job-types');

    expect(response.status).toBe(200);
    const prices = Object.fromEntries(
      (response.body as { name: string; pricePerPhotoCents: number }[]).map((j) => [j.name, j.pricePerPhotoCents]),
    );
    expect(prices).toMatchObject({
      'Basic Enhancement': 500,
      HDR: 800,
      'Virtual Staging': 2500,
      'Sky Replacement': 1000,
      'Object Removal': 1200,
    });
    for (const jobType of response.body) {
      expect(jobType).toMatchObject({ isActive: true, defaultEditorPriceCents: expect.any(Number) });
    }
  });
});
