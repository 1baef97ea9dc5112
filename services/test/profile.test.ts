import { describe, expect, it } from 'vitest';
import { aPhotographer, as, db } from './support';

describe('PATCH /api/auth/profile', () => {
  it('changes the display name and profile image', async () => {
    const account = await aPhotographer({ displayName: 'Old Name' });

    const response = await as(account).patch('/api/auth/profile', {
      displayName: '  Jordan Wide  ',
      profileImageUrl: 'https://images.example.com/jordan.png',
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      displayName: 'Jordan Wide',
      profileImageUrl: 'https://images.example.com/jordan.png',
    });
    expect((await as(account).get('/api/auth/me')).body.displayName).toBe('Jordan Wide');
  });

  it('removes the profile image when sent null', async () => {
    const account = await aPhotographer();
    await as(account).patch('/api/auth/profile', { profileImageUrl: 'https://images.example.com/a.png' });

    const response = await as(account).patch('/api/auth/profile', { profileImageUrl: null });

    expect(response.status).toBe(200);
    expect(response.body.profileImageUrl).toBeNull();
  });

  it('rejects bad fields with 400 and changes nothing', async () => {
    const account = await aPhotographer({ displayName: 'Kept Name' });
    const before = (await db().user.get({ userId: account.uid }).go()).data;

    for (const body of [
      { displayName: '   ' },
      { displayName: 'x'.repeat(101) },
      { profileImageUrl: 'javascript:alert(1)' },
      { profileImageUrl: 'not a url' },
      { roles: ['admin'] },
      {},
    ]) {
      const response = await as(account).patch('/api/auth/profile', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
    }

    const after = (await db().user.get({ userId: account.uid }).go()).data;
    expect(after).toEqual(before);
  });
});
