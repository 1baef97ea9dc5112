import { Entity, Service } from 'electrodb';
import { dynamo, tableName } from './client';
import { electroDbClient } from './electrodb-client';
import { definitions } from './entity-definitions';

/**
 * A definition's copy for ElectroDB, which writes into the index definitions it is given (a
 * `facets` beside each `composite`): the definitions stay as written, for the direct writes.
 */
const unshared = <Definition extends { indexes: object }>(definition: Definition): Definition => ({
  ...definition,
  indexes: Object.fromEntries(
    Object.entries(definition.indexes).map(([name, index]) => [
      name,
      { ...index, pk: { ...index.pk }, ...(index.sk ? { sk: { ...index.sk } } : {}) },
    ]),
  ),
});

/** How to build each entity; `marketplace()` builds one on its first use. */
const builders = {
  user: () => new Entity(unshared(definitions.user)),
  userEmail: () => new Entity(unshared(definitions.userEmail)),
  invitation: () => new Entity(unshared(definitions.invitation)),
  jobType: () => new Entity(unshared(definitions.jobType)),
  jobTypeName: () => new Entity(unshared(definitions.jobTypeName)),
  addOn: () => new Entity(unshared(definitions.addOn)),
  editorRate: () => new Entity(unshared(definitions.editorRate)),
  payout: () => new Entity(unshared(definitions.payout)),
  order: () => new Entity(unshared(definitions.order)),
  orderSearchWord: () => new Entity(unshared(definitions.orderSearchWord)),
  orderImage: () => new Entity(unshared(definitions.orderImage)),
  orderRevision: () => new Entity(unshared(definitions.orderRevision)),
  orderImageMarks: () => new Entity(unshared(definitions.orderImageMarks)),
  orderAddOns: () => new Entity(unshared(definitions.orderAddOns)),
  orderEvent: () => new Entity(unshared(definitions.orderEvent)),
  feedback: () => new Entity(unshared(definitions.feedback)),
  counter: () => new Entity(unshared(definitions.counter)),
  payment: () => new Entity(unshared(definitions.payment)),
  billingEntry: () => new Entity(unshared(definitions.billingEntry)),
  processedMessage: () => new Entity(unshared(definitions.processedMessage)),
  download: () => new Entity(unshared(definitions.download)),
  outboxEvent: () => new Entity(unshared(definitions.outboxEvent)),
  orderDelivery: () => new Entity(unshared(definitions.orderDelivery)),
  rendition: () => new Entity(unshared(definitions.rendition)),
  shareLink: () => new Entity(unshared(definitions.shareLink)),
  liveConnection: () => new Entity(unshared(definitions.liveConnection)),
  insightHour: () => new Entity(unshared(definitions.insightHour)),
  earning: () => new Entity(unshared(definitions.earning)),
  bankPayout: () => new Entity(unshared(definitions.bankPayout)),
  dataExport: () => new Entity(unshared(definitions.dataExport)),
  accountDeletion: () => new Entity(unshared(definitions.accountDeletion)),
  securityActivity: () => new Entity(unshared(definitions.securityActivity)),
  emailChange: () => new Entity(unshared(definitions.emailChange)),
};

type Entities = { [Name in keyof typeof builders]: ReturnType<(typeof builders)[Name]> };
type EntityName = keyof Entities;

let db: Service<Entities> | undefined;

/**
 * The entities bound to this process's client and table (resolved on first use, from config).
 *
 * ElectroDB validates and compiles a model when its Entity is constructed, so each entity is built
 * when first asked for, bound the way a Service binds it (table name, then client); the Service
 * over all of them is built only for what else a Service offers (collections). The functions read
 * and write beside the entities (direct-reads.ts, direct-writes.ts; transactions are sent by
 * `commitAll`); the entities remain for the tests that hold those to ElectroDB, the ops scripts,
 * and the few paged reads not moved yet.
 */
export const marketplace = (): Service<Entities> => {
  if (db) return db;
  const client = electroDbClient(dynamo());
  const table = tableName();
  const built: Partial<Entities> = {};
  const entity = <Name extends EntityName>(name: Name): Entities[Name] => {
    let found = built[name] as Entities[Name] | undefined;
    if (!found) {
      found = builders[name]() as Entities[Name];
      found.setTableName(table);
      found.setClient(client);
      built[name] = found;
    }
    return found;
  };
  const entities = {} as Entities;
  for (const name of Object.keys(builders) as EntityName[]) {
    Object.defineProperty(entities, name, { enumerable: true, get: () => entity(name) });
  }
  let service: Service<Entities> | undefined;
  const wholeService = () => {
    service ??= new Service(entities, { client, table });
    return service;
  };
  db = new Proxy({} as Service<Entities>, {
    get: (_target, property) => (property === 'entities' ? entities : Reflect.get(wholeService(), property)),
  });
  return db;
};
