import {
  appendFileSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/**
 * The Stripe fake's objects on disk, so an order created before `npm run dev` restarts can still
 * be paid after it, and saved cards, connected accounts, transfers, payouts and balances are where
 * they were. The fake names its collections (intents, customers, accounts, the balance
 * transactions its balances are summed from, ...); one it did not have before starts empty. Two
 * files in the fake's folder:
 *
 * - `state.json`, every object at the last start, only ever replaced whole: written to a temp
 *   file, flushed, then renamed over the old one, so a crash leaves the old file or the new one.
 * - `changes.jsonl`, one line per object changed since, appended before the fake answers the
 *   request that changed it: once an answer is out, a `kill -9` cannot lose the change. A line
 *   torn by a crash mid-append is skipped when the folder is read.
 *
 * Each line holds an object's whole new value (never a difference), so reading a line twice does
 * no harm: a crash after the snapshot was replaced but before the log was emptied is safe.
 */
export type StoredCollections<Names extends string> = Record<Names, Map<string, unknown>>;

interface StoredChange {
  collection: string;
  id: string;
  value: unknown;
}

const STATE_FILE = 'state.json';
const CHANGES_FILE = 'changes.jsonl';

/** Writes a file so that readers see the old content or the new, never a part. */
const replaceFile = (file: string, content: string) => {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
};

export class StripeFakeStore<Names extends string> {
  private staged: StoredChange[] = [];

  /** `folder` undefined: nothing is written, and a restart starts empty (as the fake always did). */
  constructor(
    private readonly folder: string | undefined,
    private readonly names: readonly Names[],
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** Every object in the folder (the snapshot, then the changes since), folded into a new snapshot. */
  load(): StoredCollections<Names> {
    const collections = Object.fromEntries(
      this.names.map((name) => [name, new Map<string, unknown>()]),
    ) as StoredCollections<Names>;
    this.staged = [];
    if (!this.folder) return collections;
    mkdirSync(this.folder, { recursive: true });
    // A temp file left by a crash before its rename was never the state: the file it was to replace is.
    for (const name of readdirSync(this.folder)) if (name.endsWith('.tmp')) rmSync(path.join(this.folder, name));
    const stateFile = path.join(this.folder, STATE_FILE);
    const changesFile = path.join(this.folder, CHANGES_FILE);
    if (existsSync(stateFile)) {
      const snapshot = JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, Record<string, unknown>>;
      for (const name of this.names) {
        for (const [id, value] of Object.entries(snapshot[name] ?? {})) collections[name].set(id, value);
      }
    }
    if (existsSync(changesFile)) {
      const lines = readFileSync(changesFile, 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (!line.trim()) return;
        let change: StoredChange;
        try {
          change = JSON.parse(line) as StoredChange;
        } catch {
          this.log(`stripe fake: skipped line ${index + 1} of ${changesFile}, cut short by a crash`);
          return;
        }
        collections[change.collection as Names]?.set(change.id, change.value);
      });
    }
    this.snapshot(collections);
    return collections;
  }

  /** One object's new value, written by the next `commit`. */
  put(collection: Names, id: string, value: unknown) {
    if (this.folder) this.staged.push({ collection, id, value });
  }

  /** Appends what was put since the last commit, in one write; call it before answering. */
  commit() {
    if (!this.folder || this.staged.length === 0) return;
    const lines = this.staged.map((change) => `${JSON.stringify(change)}\n`).join('');
    this.staged = [];
    appendFileSync(path.join(this.folder, CHANGES_FILE), lines);
  }

  /** Replaces the snapshot with these objects and empties the log they now include. */
  snapshot(collections: StoredCollections<Names>) {
    if (!this.folder) return;
    const content = Object.fromEntries(this.names.map((name) => [name, Object.fromEntries(collections[name])]));
    replaceFile(path.join(this.folder, STATE_FILE), JSON.stringify(content));
    replaceFile(path.join(this.folder, CHANGES_FILE), '');
  }
}
