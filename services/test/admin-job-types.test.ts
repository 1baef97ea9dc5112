import { randomUUID } from 'node:crypto';
import type { JobTypeView } from '@marketplace/events/job-types';
import { beforeAll, describe, expect, it } from 'vitest';
import { anEditor, aPhotographer, as, aUserWithRoles, call, db, type TestAccount } from './support';

let admin: TestAccount;
let photographer: TestAccount;

beforeAll(async () => {
  [admin, photographer] = await Promise.all([aUserWithRoles(['admin']), aPhotographer()]);
});

/** A name no other test uses: the job type list is shared by every test. */
const uniqueName = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

const createJobType = (body: object) => as(admin).post('/api/admin/job-types', body);

const aJobType = async (body: object = {}) => {
  const response = await createJobType({ name: uniqueName('Twilight'), ...body });
  if (response.status !== 201) throw new Error(`job type not created: ${response.status} ${response.body?.message}`);
  return response.body as JobTypeView;
};

const adminList = async () => (await as(admin).get('/api/admin/job-types')).body as JobTypeView[];
const offered = async () => (await as(photographer).get('/api/orders/job-types')).body as JobTypeView[];
const order = (jobTypeId: string, photoCount: number) =>
  as(photographer).post('/api/orders', { jobTypeId, photoCount });

describe('who may manage job types', () => {
  const routes = [
    ['GET', '/api/admin/job-types', undefined],
    ['POST', '/api/admin/job-types', { name: 'Not allowed' }],
    ['PATCH', '/api/admin/job-types/hdr', { pricePerPhotoCents: 1 }],
  ] as const;

  it('refuses anonymous callers with 401 and photographers and editors with 403', async () => {
    const editor = await anEditor();
    for (const [method, path, body] of routes) {
      expect((await call(path, { method, body })).status, `${method} ${path}`).toBe(401);
      for (const account of [photographer, editor]) {
        expect((await call(path, { method, body, token: account.token })).status, `${method} ${path}`).toBe(403);
      }
    }
    expect((await db().jobType.get({ jobTypeId: 'hdr' }).go()).data?.pricePerPhotoCents).toBe(800);
  });
});

describe('POST /api/admin/job-types', () => {
  it('creates an active job type at $5.00 and $0.50 when no prices are given, its id a slug of the name', async () => {
    const name = uniqueName('Twilight Conversion');

    const response = await createJobType({ name: `  ${name}  `, description: 'Day to dusk' });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: name.toLowerCase().replace(/ /g, '-'),
      name,
      description: 'Day to dusk',
      pricePerPhotoCents: 500,
      defaultEditorPriceCents: 50,
      isActive: true,
      createdAt: expect.any(String),
    });
    expect((await offered()).map((j) => j.id)).toContain(response.body.id);
  });

  it('keeps the prices it is given and no description when none is given', async () => {
    const created = await aJobType({ pricePerPhotoCents: 1750, defaultEditorPriceCents: 600, description: '' });

    expect(created).toMatchObject({ pricePerPhotoCents: 1750, defaultEditorPriceCents: 600, description: null });
  });

  it('refuses a missing name and negative or fractional prices, creating nothing', async () => {
    const name = uniqueName('Refused');
    const refusals = await Promise.all([
      createJobType({ name: '   ' }),
      createJobType({ name, pricePerPhotoCents: -1 }),
      createJobType({ name, defaultEditorPriceCents: 12.5 }),
    ]);

    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(refusals[0]!.body.message).toBe('Name is required');
    expect((await adminList()).some((j) => j.name === name)).toBe(false);
  });

  it('refuses a name already used, in any case and spacing, with a 409 naming it', async () => {
    const existing = await aJobType();

    const response = await createJobType({ name: `  ${existing.name.toUpperCase().replace(' ', '   ')}` });

    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      error: 'CONFLICT',
      message: `A job type named ${existing.name.toUpperCase().replace(' ', '   ')} already exists`,
    });
    expect((await createJobType({ name: 'hdr' })).status).toBe(409);
  });

  it('lets exactly one of ten simultaneous creates with one name win', async () => {
    const name = uniqueName('Race');

    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createJobType({ name: i % 2 ? name.toUpperCase() : name })),
    );

    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect((await adminList()).filter((j) => j.name.toLowerCase() === name.toLowerCase())).toHaveLength(1);
  });

  it('gives a new id when the slug of its name is held by a renamed job type', async () => {
    const first = await aJobType();
    await as(admin).patch(`/api/admin/job-types/${first.id}`, { name: uniqueName('Renamed') });

    const second = await createJobType({ name: first.name });

    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.id);
    expect(second.body.id).toMatch(/^[0-9A-Z]{26}$/);
    const ids = (await adminList()).map((j) => j.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.body.id]));
  });
});

describe('GET /api/admin/job-types', () => {
  it('lists inactive job types too, by name, while photographers see only active ones', async () => {
    const suffix = randomUUID().slice(0, 8);
    const zulu = await aJobType({ name: `Zulu ${suffix}` });
    const alpha = await aJobType({ name: `alpha ${suffix}` });
    await as(admin).patch(`/api/admin/job-types/${alpha.id}`, { isActive: false });

    const listed = await adminList();

    const mine = listed.filter((j) => j.name.endsWith(suffix));
    expect(mine.map((j) => [j.name, j.isActive])).toEqual([
      [`alpha ${suffix}`, false],
      [`Zulu ${suffix}`, true],
    ]);
    const offeredIds = (await offered()).map((j) => j.id);
    expect(offeredIds).toContain(zulu.id);
    expect(offeredIds).not.toContain(alpha.id);
  });
});

describe('PATCH /api/admin/job-types/{id}', () => {
  it('prices new orders at the new price while an existing order keeps its own', async () => {
    const jobType = await aJobType({ pricePerPhotoCents: 900 });
    const before = await order(jobType.id, 3);
    expect(before.body.order.totalAmountCents).toBe(2700);

    const updated = await as(admin).patch(`/api/admin/job-types/${jobType.id}`, {
      pricePerPhotoCents: 1100,
      defaultEditorPriceCents: 275,
    });

    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: jobType.id, pricePerPhotoCents: 1100, defaultEditorPriceCents: 275 });
    const after = await order(jobType.id, 3);
    expect(after.status).toBe(201);
    expect(after.body.order.totalAmountCents).toBe(3300);
    const existing = await as(photographer).get(`/api/orders/${before.body.order.id}`);
    expect(existing.body.totalAmountCents).toBe(2700);
    const stored = await db().order.get({ orderId: before.body.order.id }).go();
    expect(stored.data).toMatchObject({ pricePerPhotoCents: 900, totalAmountCents: 2700 });
  });

  it('stops offering a deactivated job type and refuses orders for it, and offers it again once reactivated', async () => {
    const jobType = await aJobType();

    const deactivated = await as(admin).patch(`/api/admin/job-types/${jobType.id}`, { isActive: false });

    expect(deactivated.body).toMatchObject({ id: jobType.id, isActive: false });
    expect((await offered()).map((j) => j.id)).not.toContain(jobType.id);
    const refused = await order(jobType.id, 1);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Please select a service type that is offered');
    expect((await adminList()).find((j) => j.id === jobType.id)).toMatchObject({ isActive: false });

    await as(admin).patch(`/api/admin/job-types/${jobType.id}`, { isActive: true });
    expect((await offered()).map((j) => j.id)).toContain(jobType.id);
    expect((await order(jobType.id, 1)).status).toBe(201);
  });

  it('renames a job type, freeing its old name and refusing one already used', async () => {
    const [jobType, other] = await Promise.all([aJobType(), aJobType()]);
    const newName = uniqueName('Dusk');

    const clash = await as(admin).patch(`/api/admin/job-types/${jobType.id}`, { name: other.name.toLowerCase() });
    const renamed = await as(admin).patch(`/api/admin/job-types/${jobType.id}`, { name: newName });

    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe(`A job type named ${other.name.toLowerCase()} already exists`);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: jobType.id, name: newName, pricePerPhotoCents: 500 });
    expect((await adminList()).find((j) => j.id === jobType.id)?.name).toBe(newName);
    expect((await createJobType({ name: newName })).status).toBe(409);
    expect((await createJobType({ name: jobType.name })).status).toBe(201);
  });

  it('lets only one of two simultaneous renames to one name win', async () => {
    const [first, second] = await Promise.all([aJobType(), aJobType()]);
    const name = uniqueName('Contested');

    const results = await Promise.all(
      [first, second].map((j) => as(admin).patch(`/api/admin/job-types/${j.id}`, { name })),
    );

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await adminList()).filter((j) => j.name === name)).toHaveLength(1);
  });

  it('sets and clears the description, and changes only what is sent', async () => {
    const jobType = await aJobType({ description: 'First words', pricePerPhotoCents: 1234 });

    const described = await as(admin).patch(`/api/admin/job-types/${jobType.id}`, { description: 'Better words' });
    const cleared = await as(admin).patch(`/api/admin/job-types/${jobType.id}`, { description: null });

    expect(described.body).toMatchObject({ description: 'Better words', pricePerPhotoCents: 1234, isActive: true });
    expect(cleared.body.description).toBeNull();
    expect((await adminList()).find((j) => j.id === jobType.id)).toMatchObject({
      name: jobType.name,
      description: null,
      pricePerPhotoCents: 1234,
    });
  });

  it('answers 404 for an unknown job type and 400 for an empty or unknown change', async () => {
    const jobType = await aJobType();

    expect((await as(admin).patch(`/api/admin/job-types/no-such-${randomUUID()}`, { isActive: false })).status).toBe(
      404,
    );
    const empty = await as(admin).patch(`/api/admin/job-types/${jobType.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Nothing to update');
    expect((await as(admin).patch(`/api/admin/job-types/${jobType.id}`, { id: 'hdr' })).status).toBe(400);
    expect((await as(admin).patch(`/api/admin/job-types/${jobType.id}`, { pricePerPhotoCents: -5 })).status).toBe(400);
  });
});
