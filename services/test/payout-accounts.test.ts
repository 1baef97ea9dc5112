import { createHmac } from 'node:crypto';
import type { PayoutAccountLinkView, PayoutAccountView } from '@marketplace/events/payouts';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET, LOCAL_STRIPE_WEBHOOK_SECRET } from '../local/stack';
import { atStripe, onboard } from './payout-support';
import { anEditor, aPhotographer, as, aUserWithRoles, call, db, type TestAccount, waitFor } from './support';

/**
 * 'Set up payouts' through the Stripe fake's onboarding stand-in, with the status following what
 * Stripe says (its Connect webhook, and the server's own read on return), and the Connect
 * endpoint's signature.
 */
const linkFor = async (editor: TestAccount, returnTo: 'profile' | 'editor' = 'profile') => {
  const response = await as(editor).post('/api/payout-account/link', { returnTo });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as PayoutAccountLinkView;
};

const accountOf = async (editor: TestAccount) =>
  (await as(editor).get('/api/payout-account')).body as PayoutAccountView;

const stripeAccountIdOf = async (editor: TestAccount) =>
  ((await db().user.get({ userId: editor.uid }).go({ consistent: true })).data as { stripeAccountId?: string })
    .stripeAccountId;

const signed = (payload: string, secret: string, at = Math.floor(Date.now() / 1000)) =>
  `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${payload}`).digest('hex')}`;

const postConnectEvent = (payload: string, signature: string) =>
  fetch(`${process.env.API_URL}/api/stripe/connect-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });

const accountUpdatedEvent = (account: Record<string, unknown>, id = `evt_test_${Date.now()}`) =>
  JSON.stringify({ id, object: 'event', type: 'account.updated', account: account.id, data: { object: account } });

describe('setting up payouts', () => {
  it('makes one Express account, sends the editor to onboarding, and follows Stripe to "enabled"', async () => {
    const editor = await anEditor();
    expect(await accountOf(editor)).toEqual({
      status: 'not_set_up',
      requirements: [],
      disabledReason: null,
      updatedAt: null,
    });

    const { url, account } = await linkFor(editor, 'profile');
    expect(account.status).toBe('onboarding');
    expect(account.requirements).toEqual(expect.arrayContaining(['bank account', 'date of birth']));
    const accountId = await stripeAccountIdOf(editor);
    const atFake = (
      await atStripe<{ type: string; metadata: Record<string, string>; email: string }>(`/v1/accounts/${accountId}`)
    ).body;
    expect(atFake).toMatchObject({ type: 'express', email: editor.email, metadata: { userId: editor.uid } });

    const back = await onboard(url, 'complete');
    expect(back).toBe(`${process.env.SITE_URL}/profile?payouts=returned`);
    // Stripe's account.updated reaches the Connect endpoint and the status follows it.
    const followed = await waitFor(
      () => accountOf(editor),
      (a) => a.status === 'enabled',
    );
    expect(followed).toMatchObject({ status: 'enabled', requirements: [] });
    // On return the page asks the server to read the account itself: the same answer.
    const refreshed = await as(editor).post('/api/payout-account/refresh', { returnedFrom: 'onboarding' });
    expect(refreshed.body).toMatchObject({ status: 'enabled', requirements: [] });
  });

  it('left incomplete, says in words what Stripe still needs', async () => {
    const editor = await anEditor();
    const { url } = await linkFor(editor, 'editor');
    expect(await onboard(url, 'incomplete')).toBe(`${process.env.SITE_URL}/editor?payouts=returned`);
    const refreshed = await as(editor).post('/api/payout-account/refresh', { returnedFrom: 'onboarding' });
    expect(refreshed.body).toMatchObject({ status: 'needs_info', requirements: ['bank account'] });
    expect(
      await waitFor(
        () => accountOf(editor),
        (a) => a.status === 'needs_info',
      ),
    ).toMatchObject({
      requirements: ['bank account'],
    });

    // Finished on a second visit, with a fresh link for the same account.
    const again = await linkFor(editor);
    expect(await stripeAccountIdOf(editor)).toBeDefined();
    await onboard(again.url, 'complete');
    expect(
      await waitFor(
        () => accountOf(editor),
        (a) => a.status === 'enabled',
      ),
    ).toMatchObject({ status: 'enabled' });
  });

  it('"come back later" returns to the refresh page, which gets a fresh link for the same account', async () => {
    const editor = await anEditor();
    const first = await linkFor(editor);
    const accountId = await stripeAccountIdOf(editor);
    expect(await onboard(first.url, 'later')).toBe(`${process.env.SITE_URL}/profile/payouts/refresh?returnTo=profile`);
    expect((await accountOf(editor)).status).toBe('onboarding');
    // A used link opens no form again: the page a browser lands on says it expired.
    expect(await (await fetch(first.url)).text()).toContain('This link has expired');

    const fresh = await linkFor(editor);
    expect(fresh.url).not.toBe(first.url);
    expect(await stripeAccountIdOf(editor)).toBe(accountId);
  });

  it('makes one account however many set-ups run at once', async () => {
    const editor = await anEditor();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => as(editor).post('/api/payout-account/link', { returnTo: 'profile' })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const accountId = await stripeAccountIdOf(editor);
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await atStripe<{ data: { id: string; metadata: Record<string, string> }[]; has_more: boolean }>(
        `/v1/accounts?limit=100${after ? `&starting_after=${after}` : ''}`,
      );
      ids.push(...page.body.data.filter((a) => a.metadata.userId === editor.uid).map((a) => a.id));
      if (!page.body.has_more || page.body.data.length === 0) break;
      after = page.body.data.at(-1)!.id;
    }
    expect(ids).toEqual([accountId]);
  });

  it('is for editors only, and each editor sees their own account', async () => {
    const [editorA, editorB, photographer, admin] = await Promise.all([
      anEditor(),
      anEditor(),
      aPhotographer(),
      aUserWithRoles(['admin']),
    ]);
    await linkFor(editorA);
    expect((await accountOf(editorA)).status).toBe('onboarding');
    expect((await accountOf(editorB)).status).toBe('not_set_up');
    for (const path of ['/api/payout-account', '/api/earnings', '/api/payouts']) {
      expect((await as(photographer).get(path)).status, path).toBe(403);
      expect((await as(admin).get(path)).status, path).toBe(403);
      expect((await call(path)).status, path).toBe(401);
    }
    expect((await as(photographer).post('/api/payout-account/link', { returnTo: 'profile' })).status).toBe(403);
    expect((await as(editorA).post('/api/payout-account/link', { returnTo: 'https://evil.example' })).status).toBe(400);
    expect((await as(editorA).get(`/api/admin/editors/${editorB.uid}/earnings`)).status).toBe(403);
    expect((await as(admin).get(`/api/admin/editors/${editorB.uid}/earnings`)).status).toBe(200);
    expect((await as(admin).get('/api/admin/editors/no-such-editor/earnings')).status).toBe(404);
    // Editor Management shows each editor's account as Stripe last described it.
    const listed = (await as(admin).get('/api/admin/editors?limit=50')).body as {
      editors: { id: string; payoutAccount: PayoutAccountView }[];
    };
    expect(listed.editors.find((e) => e.id === editorA.uid)?.payoutAccount.status).toBe('onboarding');
    expect(listed.editors.find((e) => e.id === editorB.uid)?.payoutAccount.status).toBe('not_set_up');
  });
});

describe('the Connect endpoint', () => {
  let editor: TestAccount;
  let account: Record<string, unknown>;

  beforeAll(async () => {
    editor = await anEditor();
    const { url } = await linkFor(editor);
    await onboard(url, 'incomplete');
    await waitFor(
      () => accountOf(editor),
      (a) => a.status === 'needs_info',
    );
    account = (await atStripe(`/v1/accounts/${await stripeAccountIdOf(editor)}`)).body;
  });

  it('refuses an event not signed with its own secret: forged, or signed for the payments endpoint', async () => {
    // Claims the account can take payouts: refused whatever it says.
    const payload = accountUpdatedEvent({ ...account, payouts_enabled: true, capabilities: { transfers: 'active' } });
    for (const signature of [
      signed(payload, 'whsec_forged'),
      signed(payload, LOCAL_STRIPE_WEBHOOK_SECRET),
      signed(payload, LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600),
      't=1,v1=00',
    ]) {
      const response = await postConnectEvent(payload, signature);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'INVALID_SIGNATURE' });
    }
    expect((await postConnectEvent(payload, '')).status).toBe(400);
    expect((await accountOf(editor)).status).toBe('needs_info');
  });

  it('takes a replayed or stale event as a reason to read the account, never as its status', async () => {
    // Signed, but what it says is stale or made up: the server reads the account at Stripe.
    const payload = accountUpdatedEvent({ ...account, payouts_enabled: true, capabilities: { transfers: 'active' } });
    for (let i = 0; i < 3; i++) {
      const response = await postConnectEvent(payload, signed(payload, LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET));
      expect(response.status).toBe(200);
    }
    expect((await accountOf(editor)).status).toBe('needs_info');
  });

  it('acknowledges events of accounts that are no editor of ours, and other event types', async () => {
    const stranger = accountUpdatedEvent({ ...account, id: 'acct_not_ours', metadata: {} });
    expect((await postConnectEvent(stranger, signed(stranger, LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET))).status).toBe(200);
    const other = JSON.stringify({
      id: 'evt_other',
      type: 'capability.updated',
      account: account.id,
      data: { object: {} },
    });
    expect((await postConnectEvent(other, signed(other, LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET))).status).toBe(200);
    const unreadable = JSON.stringify({ id: 'evt_bad', type: 'account.updated', data: { object: { nothing: 1 } } });
    expect((await postConnectEvent(unreadable, signed(unreadable, LOCAL_STRIPE_CONNECT_WEBHOOK_SECRET))).status).toBe(
      400,
    );
  });
});
