import { randomUUID } from 'node:crypto';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { convertToAttr, convertToNative } from '@aws-sdk/util-dynamodb';
import {
  addressOf,
  awsErrorOf,
  awsJsonHeaders,
  awsService,
  perConfiguration,
  regionalHost,
} from '../adapters/aws-requests';

/**
 * DynamoDB's calls on the request paths, over its JSON protocol, signed with aws-requests.ts as the
 * S3, SQS and SES calls are, rather than sent through the DynamoDB client: the client's middleware,
 * endpoint rules and schema-walking serializer were most of what a route's first call cost beyond
 * its one request (docs/decisions/0119-dynamodb-over-signed-requests.md). ElectroDB, which the
 * few remaining paged reads and the ops tools use, keeps the SDK client (client.ts).
 *
 * `documentRequests` take and give plain values as the document client does (@aws-sdk/lib-dynamodb:
 * the same fields converted, with the same util-dynamodb conversions and options); `tableRequest`
 * takes and gives DynamoDB's own attribute values. A refusal is a `DynamoDbError` named by AWS's
 * code, with a cancelled transaction's reasons, as the SDK throws them.
 */

/**
 * The SDK's DynamoDB client sets no deadline, so a slow write is never sent twice (a counter's ADD
 * would count twice): an attempt here waits longer than API Gateway waits for a route, which only
 * a connection that hangs reaches. A connection reset (a kept socket the server closed while the
 * function was frozen) is tried again, as the SDK tries it.
 */
const ATTEMPT_TIMEOUT_MS = 30_000;

type Attributes = Record<string, AttributeValue>;
type Values = Record<string, unknown>;

export interface CancellationReason {
  Code?: string;
  Message?: string;
  Item?: Values;
}

/** DynamoDB's refusal, as the SDK's exceptions carry it: `name` is AWS's code. */
export class DynamoDbError extends Error {
  readonly $metadata: { httpStatusCode: number };
  readonly CancellationReasons?: CancellationReason[];

  constructor(code: string, message: string, httpStatusCode: number, reasons?: CancellationReason[]) {
    super(message);
    this.name = code;
    this.$metadata = { httpStatusCode };
    if (reasons) this.CancellationReasons = reasons;
  }
}

const dynamoDb = perConfiguration(({ AWS_REGION, DYNAMODB_ENDPOINT }) => ({
  service: awsService({
    name: 'DynamoDB',
    signingName: 'dynamodb',
    region: AWS_REGION,
    attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
  }),
  address: addressOf(DYNAMODB_ENDPOINT ?? `https://${regionalHost('dynamodb', AWS_REGION)}`),
}));

/**
 * Binary values travel as base64, as the SDK sends them (`JSON.stringify` would write a byte array
 * as an object of indexes; the holder's own value is read, before a Buffer's `toJSON`).
 */
function withBinaryAsBase64(this: Record<string, unknown>, name: string, value: unknown) {
  const own = this[name];
  return own instanceof Uint8Array ? Buffer.from(own.buffer, own.byteOffset, own.byteLength).toString('base64') : value;
}

/**
 * The answer's JSON, with binary values (`B`, `BS`: the only string-valued keys of those names in
 * an answer) made bytes again, as the SDK gives them; the reviver runs only when there are some.
 */
const parseAnswer = (body: string): Values => {
  if (!body) return {};
  if (!body.includes('"B":"') && !body.includes('"BS":[')) return JSON.parse(body) as Values;
  const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));
  return JSON.parse(body, (name, value: unknown) =>
    name === 'B' && typeof value === 'string'
      ? bytes(value)
      : name === 'BS' && Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? value.map(bytes)
        : value,
  ) as Values;
};

type Operation = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'TransactWriteItems';

/** One operation with DynamoDB's own attribute values, its answer parsed, or its refusal thrown. */
export const tableRequest = async <Output = Values>(operation: Operation, input: object): Promise<Output> => {
  const { service, address } = dynamoDb();
  // As the SDK does: a transaction carries a token, so a retried attempt is applied at most once.
  const sent = operation === 'TransactWriteItems' ? { ClientRequestToken: randomUUID(), ...input } : input;
  const body = Buffer.from(JSON.stringify(sent, withBinaryAsBase64));
  const answer = await service.send(operation, {
    method: 'POST',
    address,
    headers: { ...awsJsonHeaders('1.0', `DynamoDB_20120810.${operation}`), 'content-length': String(body.length) },
    body,
  });
  if (answer.status >= 200 && answer.status <= 299) return parseAnswer(answer.body) as Output;
  // A refusal's body is DynamoDB's JSON, or whatever a proxy in between answered.
  const parsed = (() => {
    try {
      return parseAnswer(answer.body);
    } catch {
      return {};
    }
  })();
  const { code, message } = awsErrorOf(answer);
  const reasons = parsed.CancellationReasons as { Code?: string; Message?: string; Item?: Attributes }[] | undefined;
  throw new DynamoDbError(
    code ?? `DynamoDB${answer.status}`,
    message ?? `DynamoDB ${operation} answered ${answer.status}`,
    answer.status,
    reasons?.map(({ Item, ...reason }) => (Item ? { ...reason, Item: fromAttributes(Item) } : reason)),
  );
};

// ------------------------------------------------------------------ the document client's conversions

// The document client's options: containers at the top are converted whole, numbers read as numbers.
const MARSHALL = { convertTopLevelContainer: true } as const;
const UNMARSHALL = { convertWithoutMapWrapper: true } as const;

/** Each value of a record as an attribute value; an undefined or function value is left out, as the document client leaves it. */
export const toAttributes = (record: Values): Attributes => {
  const attributes: Attributes = {};
  for (const [name, value] of Object.entries(record)) {
    if (value !== undefined && typeof value !== 'function') {
      attributes[name] = convertToAttr(value as never, MARSHALL) as AttributeValue;
    }
  }
  return attributes;
};

export const fromAttributes = (attributes: Attributes): Values => {
  const values: Values = {};
  for (const [name, value] of Object.entries(attributes)) values[name] = convertToNative(value, UNMARSHALL);
  return values;
};

const converted = <T extends Values>(input: T, fields: readonly string[], convert: (value: never) => unknown) => {
  const out: Values = { ...input };
  for (const field of fields) if (input[field] !== undefined) out[field] = convert(input[field] as never);
  return out;
};

/** A write's fields the document client converts: the key, the item and the values of the expressions. */
const writeFields = ['Key', 'Item', 'ExpressionAttributeValues'] as const;

const writeAnswer = async (operation: Operation, input: Values) => {
  const answer = await tableRequest<{ Attributes?: Attributes }>(
    operation,
    converted(input, writeFields, toAttributes),
  );
  return answer.Attributes ? { Attributes: fromAttributes(answer.Attributes) } : {};
};

/** The document client's calls, with the fields it converts converted the same way. */
export const documentRequests = {
  getItem: async (input: Values): Promise<{ Item?: Values }> => {
    const { Item } = await tableRequest<{ Item?: Attributes }>('GetItem', converted(input, ['Key'], toAttributes));
    return Item ? { Item: fromAttributes(Item) } : {};
  },

  batchGetItem: async (input: {
    RequestItems: Record<string, Values & { Keys: Values[] }>;
  }): Promise<{ Responses?: Record<string, Values[]>; UnprocessedKeys?: Record<string, { Keys?: Values[] }> }> => {
    const RequestItems = Object.fromEntries(
      Object.entries(input.RequestItems).map(([table, request]) => [
        table,
        { ...request, Keys: request.Keys.map(toAttributes) },
      ]),
    );
    const answer = await tableRequest<{
      Responses?: Record<string, Attributes[]>;
      UnprocessedKeys?: Record<string, { Keys?: Attributes[] }>;
    }>('BatchGetItem', { ...input, RequestItems });
    return {
      ...(answer.Responses && {
        Responses: Object.fromEntries(
          Object.entries(answer.Responses).map(([table, items]) => [table, items.map(fromAttributes)]),
        ),
      }),
      ...(answer.UnprocessedKeys && {
        UnprocessedKeys: Object.fromEntries(
          Object.entries(answer.UnprocessedKeys).map(([table, request]) => [
            table,
            { ...request, ...(request.Keys && { Keys: request.Keys.map(fromAttributes) }) },
          ]),
        ),
      }),
    };
  },

  query: async (input: Values): Promise<{ Items?: Values[]; LastEvaluatedKey?: Values }> => {
    const answer = await tableRequest<{ Items?: Attributes[]; LastEvaluatedKey?: Attributes }>(
      'Query',
      converted(input, ['ExclusiveStartKey', 'ExpressionAttributeValues'], toAttributes),
    );
    return {
      ...(answer.Items && { Items: answer.Items.map(fromAttributes) }),
      ...(answer.LastEvaluatedKey && { LastEvaluatedKey: fromAttributes(answer.LastEvaluatedKey) }),
    };
  },

  putItem: (input: Values) => writeAnswer('PutItem', input),
  updateItem: (input: Values) => writeAnswer('UpdateItem', input),
  deleteItem: (input: Values) => writeAnswer('DeleteItem', input),

  transactWriteItems: async ({ TransactItems, ...input }: { TransactItems: readonly Values[] }) => {
    const items = TransactItems.map((item) =>
      Object.fromEntries(
        Object.entries(item).map(([kind, request]) => [kind, converted(request as Values, writeFields, toAttributes)]),
      ),
    );
    await tableRequest('TransactWriteItems', { ...input, TransactItems: items });
    return {};
  },
};
