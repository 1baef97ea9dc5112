import type { Logger } from 'vite';

/** How a connection ends when its peer goes without closing it: the tab closed, the browser quit. */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Vite's logger, without its stack traces for a live-updates socket that was reset: a tab closed
 * mid-socket is everyday life (the gateway logs the disconnect), not an error in the terminal of
 * `npm run dev`. Every other error passes through as Vite writes it.
 */
export const withoutSocketResets = (logger: Logger): Logger =>
  // Built on Vite's own logger, so what Vite keeps on it (hasWarned) reads through, never a stale copy.
  Object.assign(Object.create(logger) as Logger, {
    error: (message: string, options?: Parameters<Logger['error']>[1]) => {
      const code = (options?.error as NodeJS.ErrnoException | undefined)?.code;
      if (message.includes('ws proxy') && code && RESET_CODES.has(code)) return;
      logger.error(message, options);
    },
  });
