import { describe, expect, it } from 'vitest';
import { accessPatterns } from './access-patterns';
import { marketplace } from './entities';

describe('the list of access patterns', () => {
  it('names only indexes that the entities define', () => {
    const entities = marketplace().entities as unknown as Record<
      string,
      { schema: { indexes: Record<string, unknown> } }
    >;
    for (const pattern of accessPatterns) {
      expect(entities[pattern.entity], pattern.question).toBeDefined();
      expect(Object.keys(entities[pattern.entity]!.schema.indexes), pattern.question).toContain(pattern.index);
    }
  });

  it('covers every index of every entity', () => {
    const entities = marketplace().entities as unknown as Record<
      string,
      { schema: { indexes: Record<string, unknown> } }
    >;
    const listed = new Set(accessPatterns.map((p) => `${p.entity}.${p.index}`));
    for (const [name, entity] of Object.entries(entities)) {
      for (const index of Object.keys(entity.schema.indexes))
        expect(listed, `${name}.${index}`).toContain(`${name}.${index}`);
    }
  });
});
