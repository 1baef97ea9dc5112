/**
 * Every item of these keys, by BatchGet (ElectroDB splits the keys into requests of 100). DynamoDB
 * may leave keys unprocessed when throttled; those are asked again after a short pause, and a key
 * still unprocessed after the last attempt is an error rather than a silently missing item.
 */
const ATTEMPTS = 5;
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));

export const batchGetAll = async <Key, Item>(
  get: (keys: Key[]) => Promise<{ data: unknown[]; unprocessed: unknown[] }>,
  keys: Key[],
): Promise<Item[]> => {
  const found: Item[] = [];
  let pending = keys;
  for (let attempt = 0; pending.length; attempt++) {
    if (attempt === ATTEMPTS)
      throw new Error(`BatchGet left ${pending.length} keys unprocessed after ${ATTEMPTS} attempts`);
    if (attempt) await pause(attempt);
    const { data, unprocessed } = await get(pending);
    found.push(...(data as Item[]));
    pending = unprocessed as Key[];
  }
  return found;
};
