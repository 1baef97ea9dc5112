import http from 'node:http';

/** Placeholder until the Stripe fake lands: answers nothing but keeps its port. */
export const startStripeFake = async ({
  port,
}: {
  port: number;
  webhookUrl: string;
  webhookSecret: string;
  log?: (line: string) => void;
}) => {
  const server = http.createServer((_req, res) => {
    res.writeHead(501);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
};
