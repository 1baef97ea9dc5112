/// <reference path="../types/electrodb-client.d.ts" />
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
// ElectroDB's own wrapper of a client (no types of its own: ../types/electrodb-client.d.ts).
import { DocumentClientV3Wrapper } from 'electrodb/src/client.js';
// The document client's commands, by the services' `#document-commands` name on purpose: the
// Lambda bundles replace the package name `@aws-sdk/lib-dynamodb` (infra/lib/bundling/options.ts),
// so this import is the one place that reaches the real document client.
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '#document-commands';

/**
 * The client every entity and the Service are bound to.
 *
 * Given a bare DynamoDB client, ElectroDB wraps it with the command classes of the document
 * client it `require`s as a whole; a bundler keeps a required module whole, with every command
 * and schema of the DynamoDB client behind it (about 57 KB more in every Lambda bundle). Handing
 * ElectroDB its wrapper already built, over the ten commands it calls, lets the bundle keep only
 * those; the same ElectroDB code then runs, in tests and in Lambda alike.
 */
export const electroDbClient = (client: DynamoDBClient) =>
  new DocumentClientV3Wrapper(client, {
    BatchGetCommand,
    BatchWriteCommand,
    DeleteCommand,
    GetCommand,
    PutCommand,
    QueryCommand,
    ScanCommand,
    TransactGetCommand,
    TransactWriteCommand,
    UpdateCommand,
  });
