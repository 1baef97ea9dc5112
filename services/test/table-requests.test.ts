import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../local/table-setup';
import { dynamo } from '../src/data/client';
import { isConditionFailure } from '../src/data/conditional-write';
import { DynamoDbError, documentRequests, tableRequest } from '../src/data/table-requests';

/**
 * DynamoDB's calls over signed requests (table-requests.ts) must give what the document client
 * gives: each call is made both ways against DynamoDB Local, on the same items, and the answers,
 * the items left and the refusals compared. The items live in a table of this file's own.
 */
type Values = Record<string, unknown>;
const table = `table-requests-${ulid().toLowerCase()}`;

beforeAll(async () => {
  await ensureTable(dynamo(), table, { stream: false });
});

afterAll(async () => {
  await dynamo().send(new DeleteTableCommand({ TableName: table }));
});

const key = (pk: string, sk = 'item') => ({ pk, sk });

/** Every kind of value the document client converts, nested too. */
const everyKind = (pk: string): Values => ({
  ...key(pk),
  text: 'Ünïcode ✓ "quoted"',
  empty: '',
  integer: 42,
  negative: -7,
  fraction: 12.5,
  big: Number.MAX_SAFE_INTEGER,
  yes: true,
  no: false,
  nothing: null,
  list: ['a', 1, false, null, { nested: ['deep'] }],
  emptyList: [],
  map: { a: 1, b: { c: 'd' }, e: [] },
  emptyMap: {},
  strings: new Set(['x', 'y']),
  numbers: new Set([1, 2, 3]),
  bytes: new Uint8Array([0, 1, 2, 250]),
  byteSet: new Set([new Uint8Array([1]), new Uint8Array([2, 3])]),
});

const sdk = {
  get: async (k: Values) => (await dynamo().send(new GetCommand({ TableName: table, Key: k }))).Item,
  put: (item: Values) => dynamo().send(new PutCommand({ TableName: table, Item: item })),
};

/** How a refusal looks to the code that reads it: its name, the condition test, the reasons' codes. */
const refusalOf = async (call: () => Promise<unknown>) => {
  try {
    await call();
    return 'applied';
  } catch (error) {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
    return {
      name: (error as Error).name,
      conditionFailed: isConditionFailure(error),
      reasons: reasons?.map((reason) => reason.Code ?? 'None'),
      status: (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode,
    };
  }
};

describe('DynamoDB over signed requests', () => {
  it('writes and reads every kind of value as the document client does, both ways', async () => {
    const bySdk = everyKind(`sdk-${ulid()}`);
    const byRequest = everyKind(`request-${ulid()}`);
    await sdk.put(bySdk);
    await documentRequests.putItem({ TableName: table, Item: byRequest });

    expect(await sdk.get(key(byRequest.pk as string))).toEqual(byRequest);
    expect((await documentRequests.getItem({ TableName: table, Key: key(bySdk.pk as string) })).Item).toEqual(bySdk);
    expect(await documentRequests.getItem({ TableName: table, Key: key('nobody') })).toEqual(
      await dynamo()
        .send(new GetCommand({ TableName: table, Key: key('nobody') }))
        .then(({ Item }) => (Item ? { Item } : {})),
    );
  });

  it('leaves an undefined value out of an item and refuses one inside a map, as the document client does', async () => {
    const pk = `undefined-${ulid()}`;
    await documentRequests.putItem({ TableName: table, Item: { ...key(pk), gone: undefined, kept: 1 } });
    expect(await sdk.get(key(pk))).toEqual({ ...key(pk), kept: 1 });
    const inside = { ...key(`${pk}-inside`), map: { gone: undefined } };
    const sdkError = await dynamo()
      .send(new PutCommand({ TableName: table, Item: inside }))
      .catch((error: Error) => error.message);
    const requestError = await documentRequests
      .putItem({ TableName: table, Item: inside })
      .catch((error: Error) => error.message);
    expect(requestError).toBe(sdkError);
  });

  it('updates, deletes and answers with the attributes asked for, as the document client does', async () => {
    const sdkKey = key(`update-sdk-${ulid()}`);
    const requestKey = key(`update-request-${ulid()}`);
    for (const k of [sdkKey, requestKey]) await sdk.put({ ...k, count: 1, tags: new Set(['a']) });
    const update = (k: Values) => ({
      TableName: table,
      Key: k,
      UpdateExpression: 'SET #count = #count + :one, #list = :list ADD #tags :more',
      ExpressionAttributeNames: { '#count': 'count', '#list': 'list', '#tags': 'tags' },
      ExpressionAttributeValues: { ':one': 1, ':list': [{ a: 1 }, 'b'], ':more': new Set(['b']) },
      ReturnValues: 'ALL_NEW' as const,
    });
    const sdkAnswer = await dynamo().send(new UpdateCommand(update(sdkKey)));
    const requestAnswer = await documentRequests.updateItem(update(requestKey));
    expect({ ...requestAnswer.Attributes, pk: 'same' }).toEqual({ ...sdkAnswer.Attributes, pk: 'same' });

    const deleted = await documentRequests.deleteItem({ TableName: table, Key: requestKey, ReturnValues: 'ALL_OLD' });
    expect(deleted.Attributes).toEqual({ ...sdkAnswer.Attributes, ...requestKey });
    expect(await documentRequests.deleteItem({ TableName: table, Key: requestKey })).toEqual({});
    await dynamo().send(new DeleteCommand({ TableName: table, Key: sdkKey }));
  });

  it('pages a query by its last key, in both orders, as the document client does', async () => {
    const pk = `query-${ulid()}`;
    for (let i = 0; i < 7; i++) await sdk.put({ ...key(pk, `row#${i}`), i });
    for (const forward of [true, false]) {
      const pages = async (send: (input: Values) => Promise<{ Items?: Values[]; LastEvaluatedKey?: Values }>) => {
        const seen: unknown[] = [];
        let start: Values | undefined;
        do {
          const page = await send({
            TableName: table,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :row)',
            FilterExpression: '#i <> :skipped',
            ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#i': 'i' },
            ExpressionAttributeValues: { ':pk': pk, ':row': 'row#', ':skipped': 3 },
            ScanIndexForward: forward,
            Limit: 3,
            ...(start ? { ExclusiveStartKey: start } : {}),
          });
          seen.push({ items: page.Items, last: page.LastEvaluatedKey });
          start = page.LastEvaluatedKey;
        } while (start);
        return seen;
      };
      const bySdk = await pages(async (input) => {
        const { Items, LastEvaluatedKey } = await dynamo().send(new QueryCommand(input as never));
        return { Items, LastEvaluatedKey };
      });
      expect(await pages(documentRequests.query)).toEqual(bySdk);
    }
  });

  it('gets a batch, with keys that are not there, as the document client does', async () => {
    const pk = `batch-${ulid()}`;
    await sdk.put({ ...key(pk, 'a'), n: 1, s: new Set(['x']) });
    await sdk.put({ ...key(pk, 'b'), n: 2 });
    const input = { RequestItems: { [table]: { Keys: ['a', 'b', 'missing'].map((sk) => key(pk, sk)) } } };
    const sorted = (items: Values[] = []) => [...items].sort((x, y) => String(x.sk).localeCompare(String(y.sk)));
    const bySdk = await dynamo().send(new BatchGetCommand(input));
    const byRequest = await documentRequests.batchGetItem(input);
    expect(sorted(byRequest.Responses?.[table])).toEqual(sorted(bySdk.Responses?.[table]));
    expect(byRequest.UnprocessedKeys ?? {}).toEqual(bySdk.UnprocessedKeys ?? {});
  });

  it('commits a transaction, and reports a failed condition and a cancelled transaction as the SDK does', async () => {
    const pk = `transaction-${ulid()}`;
    const items = (suffix: string) => [
      { Put: { TableName: table, Item: { ...key(pk, `put-${suffix}`), set: new Set([1, 2]), at: suffix } } },
      {
        Update: {
          TableName: table,
          Key: key(pk, 'counter'),
          UpdateExpression: 'ADD #n :one',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
    ];
    await documentRequests.transactWriteItems({ TransactItems: items('request') });
    await dynamo().send(new TransactWriteCommand({ TransactItems: items('sdk') }));
    expect(await sdk.get(key(pk, 'counter'))).toEqual({ ...key(pk, 'counter'), n: 2 });
    expect(await sdk.get(key(pk, 'put-request'))).toEqual({
      ...key(pk, 'put-request'),
      set: new Set([1, 2]),
      at: 'request',
    });

    const cancelled = [
      ...items('again'),
      {
        ConditionCheck: {
          TableName: table,
          Key: key(pk, 'put-sdk'),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    const sdkRefusal = await refusalOf(() => dynamo().send(new TransactWriteCommand({ TransactItems: cancelled })));
    const requestRefusal = await refusalOf(() => documentRequests.transactWriteItems({ TransactItems: cancelled }));
    expect(requestRefusal).toEqual(sdkRefusal);
    expect(requestRefusal).toMatchObject({
      name: 'TransactionCanceledException',
      reasons: ['None', 'None', 'ConditionalCheckFailed'],
    });
    // Nothing of a cancelled transaction is applied.
    expect(await sdk.get(key(pk, 'counter'))).toEqual({ ...key(pk, 'counter'), n: 2 });
  });

  it('refuses a failed condition and a malformed request with the names and statuses the SDK gives', async () => {
    const pk = `refusal-${ulid()}`;
    await sdk.put(key(pk));
    const conditional = {
      TableName: table,
      Item: key(pk),
      ConditionExpression: 'attribute_not_exists(pk)',
    };
    const sdkCondition = await refusalOf(() => dynamo().send(new PutCommand(conditional)));
    const requestCondition = await refusalOf(() => documentRequests.putItem(conditional));
    expect(requestCondition).toEqual(sdkCondition);
    expect(requestCondition).toMatchObject({
      name: 'ConditionalCheckFailedException',
      conditionFailed: true,
      status: 400,
    });

    const malformed = { TableName: table, Key: { pk } };
    const sdkMalformed = await refusalOf(() => dynamo().send(new GetCommand(malformed)));
    const requestMalformed = await refusalOf(() => documentRequests.getItem(malformed));
    expect(requestMalformed).toEqual(sdkMalformed);
    expect(requestMalformed).toMatchObject({ name: 'ValidationException', conditionFailed: false });
    await expect(documentRequests.getItem(malformed)).rejects.toBeInstanceOf(DynamoDbError);
  });

  it("sends DynamoDB's own attribute values as they are", async () => {
    const pk = `raw-${ulid()}`;
    await tableRequest('PutItem', {
      TableName: table,
      Item: { pk: { S: pk }, sk: { S: 'item' }, n: { N: '5' }, l: { L: [{ S: 'a' }] } },
    });
    expect(await sdk.get(key(pk))).toEqual({ ...key(pk), n: 5, l: ['a'] });
    const { Item } = await tableRequest<{ Item: Values }>('GetItem', {
      TableName: table,
      Key: { pk: { S: pk }, sk: { S: 'item' } },
    });
    expect(Item).toEqual({ pk: { S: pk }, sk: { S: 'item' }, n: { N: '5' }, l: { L: [{ S: 'a' }] } });
  });
});
