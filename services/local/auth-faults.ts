import http from 'node:http';
import { buffer } from 'node:stream/consumers';

/**
 * The auth emulator as the services reach it (FIREBASE_AUTH_EMULATOR_HOST), with an outage a test
 * can switch on. Every request is forwarded to the emulator untouched, except those whose path or
 * body holds the text of a fault: they are answered 500 with Google's error body, as an identity
 * provider failing for those accounts would (Firebase Admin does not retry a 500). Matching on an
 * account's uid confines the outage to that account, so other tests running beside it are not hit.
 *
 *   POST   /__faults {match, times?}   refuse matching requests (`times` of them, or until cleared)
 *   DELETE /__faults {match?}          clear that fault, or all
 *   GET    /__faults                   the faults left and the requests refused so far, by match
 */
interface Fault {
  match: string;
  /** Refusals left; Infinity until cleared. */
  left: number;
  refused: number;
}

export const startAuthFaults = async ({ port, emulatorPort }: { port: number; emulatorPort: number }) => {
  const faults = new Map<string, Fault>();

  const control = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
    const input = body.length ? (JSON.parse(body.toString('utf8')) as { match?: string; times?: number }) : {};
    if (req.method === 'POST') {
      if (!input.match) {
        res.writeHead(400).end('a fault needs the text to match');
        return;
      }
      faults.set(input.match, { match: input.match, left: input.times ?? Number.POSITIVE_INFINITY, refused: 0 });
    } else if (req.method === 'DELETE') {
      if (input.match) faults.delete(input.match);
      else faults.clear();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        faults: [...faults.values()].map((f) => ({ ...f, left: Number.isFinite(f.left) ? f.left : null })),
      }),
    );
  };

  const server = http.createServer(async (req, res) => {
    try {
      const body = await buffer(req);
      if (req.url?.startsWith('/__faults')) return control(req, body, res);
      const text = `${req.url} ${body.toString('utf8')}`;
      const fault = [...faults.values()].find((f) => f.left > 0 && text.includes(f.match));
      if (fault) {
        fault.left -= 1;
        fault.refused += 1;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 500, message: 'INTERNAL_ERROR: injected outage', errors: [] } }));
        return;
      }
      const forwarded = http.request(
        { host: '127.0.0.1', port: emulatorPort, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502);
        res.end(String(error));
      });
      forwarded.end(body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
};
