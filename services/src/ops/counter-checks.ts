/**
 * Counters are kept by the writes that move them, in the same transaction. A family of counters
 * says how to count them again from the items they count, paged, so `npm run ops --
 * check-counters [--repair]` can find (and mend) any difference. Each family is an offline job
 * that may read every item it counts; nothing here runs on a request.
 */
export interface ExpectedCounter {
  scope: string;
  name: string;
  value: number;
}

export interface CounterFamily {
  /** What the family counts, in a few words, for the report. */
  what: string;
  /**
   * The counters the family keeps, as the items say they should be. A counter the family keeps
   * that is missing here is expected to be 0 (or absent) when stored.
   */
  recount: () => Promise<ExpectedCounter[]>;
  /** The scopes whose stored counters belong to this family (to find stored ones with no items). */
  scopes: () => Promise<string[]>;
  /** Whether a stored counter in one of those scopes is this family's (a scope may be shared). */
  keeps: (scope: string, name: string) => boolean;
}
