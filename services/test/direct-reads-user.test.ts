import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../src/data/client';
import { getRecord, keyOf, models } from '../src/data/direct-reads';
import { marketplace } from '../src/data/entities';
import { getUser } from '../src/data/users';
import { db, uniqueEmail } from './support';

/**
 * The request path reads its caller's record without building the User entity (direct-reads.ts);
 * it must send the key ElectroDB sends and return what ElectroDB's `get` returns, for every kind
 * of user record and for none.
 */
const electroGet = async (userId: string, consistent = false) =>
  (await marketplace().entities.user.get({ userId }).go({ consistent })).data;

describe('the user lookup beside the User entity', () => {
  it('sends the key ElectroDB sends, whatever the id’s case and characters', () => {
    for (const userId of ['u1', 'AbC-9_x@y', 'invited-01JABCDEF', 'Firebase+Uid/With.Dots', 'ÉLAN ü']) {
      expect(keyOf(models.user, 'byId', { userId })).toEqual(db().user.get({ userId }).params().Key);
    }
  });

  it('returns the record ElectroDB returns: a full record, a bare one, an invited placeholder, a suspended admin', async () => {
    const base = ulid();
    const records = [
      {
        userId: `Full-${base}`,
        email: uniqueEmail('full'),
        displayName: 'Pat Shutter',
        profileImageUrl: 'https://example.test/p.jpg',
        roles: ['photographer', 'editor'],
        status: 'verified' as const,
        isEditor: 'editor',
        stripeCustomerId: 'cus_123',
        payoutRequirements: ['external_account'],
        // A string set: ElectroDB answers it as an array, and so must the direct read.
        mutedEmails: ['order_completed', 'revision_requested'],
      },
      { userId: `bare-${base}`, email: uniqueEmail('bare') },
      { userId: `invited-${base}`, email: uniqueEmail('invited'), status: 'invited' as const, roles: ['editor'] },
      {
        userId: `admin-${base}`,
        email: uniqueEmail('admin'),
        roles: ['admin'],
        isAdmin: 'admin',
        status: 'suspended' as const,
        isActive: false,
        deletedAt: new Date().toISOString(),
      },
    ];
    for (const record of records) {
      await db().user.create(record).go();
      for (const consistent of [false, true]) {
        const expected = await electroGet(record.userId, consistent);
        expect(expected).not.toBeNull();
        expect(await getRecord(models.user, { userId: record.userId }, { consistent })).toEqual(expected);
        expect(await getUser(record.userId, { consistent })).toEqual(expected);
      }
    }
  });

  it('returns null where ElectroDB does: no item, or an item at the key that is no user of this version', async () => {
    const missing = `missing-${ulid()}`;
    expect(await electroGet(missing)).toBeNull();
    expect(await getRecord(models.user, { userId: missing })).toBeNull();

    const { PutItemCommand } = await import('@aws-sdk/client-dynamodb');
    for (const [entity, version] of [
      ['order', '1'],
      ['user', '2'],
    ] as const) {
      const userId = `foreign-${ulid()}`;
      const key = keyOf(models.user, 'byId', { userId });
      await dynamo().send(
        new PutItemCommand({
          TableName: tableName(),
          Item: {
            pk: { S: key.pk! },
            sk: { S: key.sk! },
            __edb_e__: { S: entity },
            __edb_v__: { S: version },
            userId: { S: userId },
            email: { S: 'x@example.test' },
          },
        }),
      );
      expect(await electroGet(userId)).toBeNull();
      expect(await getRecord(models.user, { userId })).toBeNull();
    }
  });
});
