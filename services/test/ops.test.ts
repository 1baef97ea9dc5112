import { describe, expect, it } from 'vitest';
import { grantRole, OpsError, revokeRole } from '../src/ops/roles';
import { aNewAccount, aPhotographer, as } from './support';

describe('the role ops commands', () => {
  it('grants and revokes a role by email, and the API sees it at once', async () => {
    const account = await aPhotographer();

    await grantRole(account.email.toUpperCase(), 'admin');
    expect((await as(account).get('/api/auth/me')).body.roles).toEqual(['photographer', 'admin']);

    await revokeRole(account.email, 'photographer');
    expect((await as(account).get('/api/auth/me')).body.roles).toEqual(['admin']);
  });

  it('creates the record for someone who signed up but never used the marketplace', async () => {
    const account = await aNewAccount();
    const { user } = await grantRole(account.email, 'editor');
    expect(user.roles).toEqual(['photographer', 'editor']);
  });

  it('refuses an unknown role or email', async () => {
    const account = await aPhotographer();
    await expect(grantRole(account.email, 'superuser')).rejects.toBeInstanceOf(OpsError);
    await expect(grantRole('nobody-here@example.test', 'admin')).rejects.toThrow(/must sign up first/);
  });
});
