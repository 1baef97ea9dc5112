import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces of a bundled function, read in the sources' own files and lines when they are
 * logged. Node's --enable-source-maps would do it for every stack, but it reads and parses each
 * bundle's source map (about 1 MB) while the function starts, on every cold start, errors or not
 * (docs/decisions/0080-no-source-maps-flag.md). Here the map is read on the first error a container logs.
 */
const maps = new Map<string, SourceMap | null>();

const sourceMapOf = (file: string) => {
  if (!maps.has(file)) {
    try {
      maps.set(file, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
    } catch {
      // No map beside the file (sources run as they are, a package's own file): the frame stays.
      maps.set(file, null);
    }
  }
  return maps.get(file) ?? null;
};

/** A map's source path from the repository or node_modules on, whatever directory it was built in. */
const sourcePath = (source: string) => source.replace(/^.*?\b((?:node_modules|services|events)\/)/, '$1');

const bundledFrame = /((?:file:\/\/)?\/[^\s():]+\.m?js):(\d+):(\d+)/;

export const readableStack = (stack: string) =>
  stack
    .split('\n')
    .map((line) =>
      line.replace(bundledFrame, (frame, file: string, lineNumber: string, column: string) => {
        const map = sourceMapOf(file.startsWith('file://') ? fileURLToPath(file) : file);
        const entry = map?.findEntry(Number(lineNumber) - 1, Number(column) - 1) as
          | { originalSource?: string; originalLine?: number; originalColumn?: number }
          | undefined;
        if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined) {
          return frame;
        }
        return `${sourcePath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
      }),
    )
    .join('\n');

/** The error with its stack (and its causes') read in the sources, or the error itself when nothing maps. */
const readableError = (error: Error): Error => {
  const stack = typeof error.stack === 'string' ? readableStack(error.stack) : error.stack;
  const cause = error.cause instanceof Error ? readableError(error.cause) : error.cause;
  if (stack === error.stack && cause === error.cause) return error;
  const copy = Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error)) as Error;
  Object.defineProperty(copy, 'stack', { value: stack, writable: true, configurable: true });
  if ('cause' in error) Object.defineProperty(copy, 'cause', { value: cause, writable: true, configurable: true });
  return copy;
};

/** The logger's JSON replacer: every error it writes carries a readable stack and location. */
export const withReadableStacks = (_key: string, value: unknown) =>
  value instanceof Error ? readableError(value) : value;
