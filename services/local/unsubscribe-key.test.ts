import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localUnsubscribeKey } from './unsubscribe-key';

const root = mkdtempSync(path.join(tmpdir(), 'unsubscribe-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the local stack's unsubscribe key", () => {
  it('is made once per stack and kept, so a link emailed before a restart still works after it', () => {
    const first = localUnsubscribeKey(root, 3000);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A restart (or another process of the same stack) reads the same key.
    expect(localUnsubscribeKey(root, 3000)).toBe(first);
    const file = path.join(root, '.local', 'keys', 'unsubscribe-3000.key');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Another stack (other ports) has a key of its own.
    expect(localUnsubscribeKey(root, 3100)).not.toBe(first);
  });
});
