// ElectroDB ships no types for its client module; this is the one class we use from it
// (services/src/data/electrodb-client.ts).
declare module 'electrodb/src/client.js' {
  import type { DocumentClient } from 'electrodb';

  /** ElectroDB's wrapper of a v3 client: `lib` holds the document client's command classes. */
  export class DocumentClientV3Wrapper {
    constructor(client: unknown, lib: Record<string, unknown>);
  }
  export interface DocumentClientV3Wrapper extends Extract<DocumentClient, { get: unknown }> {}
}
