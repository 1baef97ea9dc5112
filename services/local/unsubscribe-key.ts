import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The local stack's key for the emails' unsubscribe links (what the Secrets Manager secret is in
 * the cloud): made the first time a stack of these ports starts and kept in .local/keys, outside
 * the data directory a reset or a test run clears, so a link in an email sent yesterday still
 * works after `npm run dev` restarts today. Every process given the stack's environment (the
 * gateway, the queue runner, the test files) reads the same file, so they sign and check alike.
 */
export const localUnsubscribeKey = (repoRoot: string, gatewayPort: number) => {
  const dir = path.join(repoRoot, '.local', 'keys');
  const file = path.join(dir, `unsubscribe-${gatewayPort}.key`);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dir, { recursive: true });
  try {
    // 'wx': of two processes starting at once, one writes and the other reads what it wrote.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
};
