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

type Transactions = Service<Entities>['transaction'];

/**
 * The entities bound to this process's client and table (resolved on first use, from config).
 *
 * ElectroDB validates and compiles a model when its Entity is constructed, which costs more at a
 * cold start than loading the DynamoDB client itself; building all of them at module load made
 * every function pay for every entity. So each entity is built when first asked for, bound the
 * way a Service binds it (table name, then client). `commitAll` (transactions.ts) sends its items
 * itself; a transaction through `transaction` here runs in a Service of only the entities its
 * items use (the builder is run once over the entities, noting which it asks for): a Service over
 * all of them built every entity on a function's first transaction, 25 ms of CPU on each cold
 * write. The Service over all of them is built only for anything else a Service offers
 * (collections), which no function uses today. The functions read and write beside the entities
 * (direct-reads.ts, direct-writes.ts); the entities remain for the tests that hold those to
 * ElectroDB, the ops scripts, and the few paged reads not moved yet.
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
  const serviceOf = (names: readonly EntityName[]) =>
    new Service(Object.fromEntries(names.map((name) => [name, entity(name)])) as Entities, { client, table });
  let service: Service<Entities> | undefined;
  const wholeService = () => {
    service ??= serviceOf(Object.keys(builders) as EntityName[]);
    return service;
  };
  // One Service per set of entities a transaction uses; a function's transactions use a few sets.
  const services = new Map<string, Service<Entities>>();
  const inServiceOfUsed = (method: keyof Transactions) => (build: (entities: Entities) => unknown) => {
    const used = new Set<EntityName>();
    const noting = new Proxy(entities, {
      get: (target, name, receiver) => {
        if (typeof name === 'string' && name in builders) used.add(name as EntityName);
        return Reflect.get(target, name, receiver);
      },
    });
    const items = build(noting);
    const names = [...used].sort();
    const key = names.join(' ');
    // A Service needs an entity: a builder that asked for none gets the one over all of them.
    let subset = names.length ? services.get(key) : wholeService();
    if (!subset) {
      subset = serviceOf(names);
      services.set(key, subset);
    }
    // The items are built already: the Service sends them, and reads the answer, with these entities.
    return (subset.transaction[method] as (fn: () => unknown) => unknown)(() => items);
  };
  const transaction = { write: inServiceOfUsed('write'), get: inServiceOfUsed('get') } as unknown as Transactions;
  db = new Proxy({} as Service<Entities>, {
    get: (_target, property) => {
      if (property === 'entities') return entities;
      if (property === 'transaction') return transaction;
      return Reflect.get(wholeService(), property);
    },
  });
  return db;
};
