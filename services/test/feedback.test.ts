import { describe, expect, it } from 'vitest';
import { aNewAccount, aPhotographer, as, db } from './support';

const counter = async (name: string) => (await db().counter.get({ scope: 'feedback', name }).go()).data?.value ?? 0;

const feedbackOf = async (userId: string) => (await db().feedback.query.byUser({ userId }).go()).data;

describe('POST /api/feedback', () => {
  it('stores the trimmed message with the name and email from the account, status open', async () => {
    const account = await aPhotographer({ displayName: 'Casey Frame' });

    const response = await as(account).post('/api/feedback', {
      type: 'problem',
      message: '   The upload stalls at 90%   ',
      userEmail: 'someone-else@example.com',
      status: 'resolved',
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      type: 'problem',
      status: 'open',
      message: 'The upload stalls at 90%',
      userName: 'Casey Frame',
      userEmail: account.email,
      adminNotes: null,
    });
    const stored = await feedbackOf(account.uid);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ userEmail: account.email, status: 'open' });
  });

  it('accepts 10 and 2000 characters after trimming and refuses 9 and 2001, storing nothing', async () => {
    const account = await aPhotographer();
    const send = (message: string) => as(account).post('/api/feedback', { type: 'general', message });

    const nine = await send(`   ${'a'.repeat(9)}   `);
    const tooLong = await send('a'.repeat(2001));
    expect(nine.status).toBe(400);
    expect(nine.body).toMatchObject({
      error: 'VALIDATION_FAILED',
      message: 'Message must be at least 10 characters long',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Message must be less than 2000 characters');
    expect(await feedbackOf(account.uid)).toHaveLength(0);

    expect((await send(`   ${'a'.repeat(10)}   `)).status).toBe(201);
    expect((await send('a'.repeat(2000))).status).toBe(201);
    expect(await feedbackOf(account.uid)).toHaveLength(2);
  });

  it('refuses an unknown type, a missing message and invalid JSON without storing anything', async () => {
    const account = await aPhotographer();
    const total = await counter('total');

    expect((await as(account).post('/api/feedback', { type: 'rant', message: 'a long enough message' })).status).toBe(
      400,
    );
    expect((await as(account).post('/api/feedback', { type: 'problem' })).body.message).toBe(
      'Please enter your message',
    );
    expect((await as(account).send('POST', '/api/feedback', '{"type":')).status).toBe(400);

    expect(await feedbackOf(account.uid)).toHaveLength(0);
    expect(await counter('total')).toBe(total);
  });

  it("keeps the admin's counters in step with what is stored", async () => {
    const account = await aPhotographer();
    const before = {
      total: await counter('total'),
      suggestion: await counter('type#suggestion'),
      open: await counter('status#open'),
    };

    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        as(account).post('/api/feedback', { type: 'suggestion', message: `Suggestion number ${i}` }),
      ),
    );

    expect(await counter('total')).toBe(before.total + 5);
    expect(await counter('type#suggestion')).toBe(before.suggestion + 5);
    expect(await counter('status#open')).toBe(before.open + 5);
  });

  it("refuses a new user's bad first request without creating their record", async () => {
    const account = await aNewAccount();

    const response = await as(account).post('/api/feedback', { type: 'problem', message: 'short' });

    expect(response.status).toBe(400);
    expect((await db().user.get({ userId: account.uid }).go()).data).toBeNull();
  });

  it('refuses anonymous feedback', async () => {
    const response = await fetch(`${process.env.API_URL}/api/feedback`, {
      method: 'POST',
      body: JSON.stringify({ type: 'general', message: 'anonymous message here' }),
    });
    expect(response.status).toBe(401);
  });
});

describe('GET /api/feedback/my', () => {
  it('shows a user only their own feedback, newest first', async () => {
    const alice = await aPhotographer();
    const bob = await aPhotographer();
    await as(alice).post('/api/feedback', { type: 'general', message: 'Alice first message' });
    await as(alice).post('/api/feedback', { type: 'problem', message: 'Alice second message' });
    await as(bob).post('/api/feedback', { type: 'suggestion', message: 'Bob only message' });

    const mine = await as(alice).get('/api/feedback/my');

    expect(mine.status).toBe(200);
    expect(mine.body.feedback.map((f: { message: string }) => f.message)).toEqual([
      'Alice second message',
      'Alice first message',
    ]);
    expect(mine.body.nextCursor).toBeNull();
  });
});
