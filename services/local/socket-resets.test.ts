import type { Logger } from 'vite';
import { describe, expect, it } from 'vitest';
import { withoutSocketResets } from './socket-resets';

const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

describe("the dev server's logger", () => {
  it('drops a reset live-updates socket and passes every other error on', () => {
    const written: string[] = [];
    const vite = { error: (message: string) => written.push(message) } as unknown as Logger;
    const logger = withoutSocketResets(vite);

    logger.error('ws proxy socket error:\nError: read ECONNRESET', { error: reset });
    logger.error('ws proxy error:\nError: write EPIPE', {
      error: Object.assign(new Error('EPIPE'), { code: 'EPIPE' }),
    });
    logger.error('ws proxy error:\nError: connect ECONNREFUSED', {
      error: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    logger.error('http proxy error: /api/orders', { error: reset });
    logger.error('Pre-transform error: Failed to resolve import');

    expect(written).toEqual([
      'ws proxy error:\nError: connect ECONNREFUSED',
      'http proxy error: /api/orders',
      'Pre-transform error: Failed to resolve import',
    ]);
  });
});
