import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoAccounts } from '../src/ops/seed';
import { devPorts, repoRoot } from './stack';

/**
 * `npm run dev` stopped the ways people stop it (a process manager's SIGTERM, a closed
 * terminal's SIGHUP, a `kill -9`, each sent to the whole process group) and started again: one record per
 * demo email, every account (a demo one, and one made locally) signs in to the same record, and
 * the orders placed before the stop are still theirs. Runs its own copy on ports of its own.
 */
const offset = 1000 + Number(process.env.TEST_PORT_OFFSET ?? 0);
const ports = Object.fromEntries(
  Object.entries(devPorts).map(([name, port]) => [name, port + offset]),
) as typeof devPorts;
const dataDir = path.join(repoRoot, '.local', `dev-restart-${offset}`);
const api = `http://127.0.0.1:${ports.gateway}`;
const identity = `http://127.0.0.1:${ports.auth}/identitytoolkit.googleapis.com/v1`;

let running: ChildProcess | undefined;

const start = async () => {
  // Detached: the child leads a process group, as a terminal's or a process manager's job does.
  const child = spawn('npm', ['run', 'dev'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DEV_PORT_OFFSET: String(offset), DEV_DATA_DIR: dataDir },
  });
  running = child;
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('The marketplace is running')) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`npm run dev exited with ${code} before it was ready:\n${output}`));
    });
  });
  return child;
};

const stop = async (child: ChildProcess, signal: NodeJS.Signals) => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, signal);
  await exited;
  running = undefined;
  // A crash leaves the emulators running (they lead groups of their own): the next start stops them.
  if (signal === 'SIGKILL') return;
  // The emulators lead groups of their own and finish their own stop (the auth emulator saves
  // its accounts): wait until every one has let go of its port.
  const open = (port: number) =>
    fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
  for (let i = 0; i < 300; i++) {
    const stillOpen = await Promise.all([ports.auth, ports.dynamodb, ports.s3Backend, ports.ses].map(open));
    if (!stillOpen.includes(true)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

const signIn = async (email: string, password: string) => {
  const response = await fetch(`${identity}/accounts:signInWithPassword?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  const body = (await response.json()) as { idToken?: string; error?: { message: string } };
  if (!body.idToken) throw new Error(`${email} could not sign in: ${body.error?.message}`);
  return body.idToken;
};

const signUp = async (email: string, password: string) => {
  const response = await fetch(`${identity}/accounts:signUp?key=local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  return ((await response.json()) as { idToken: string }).idToken;
};

const apiCall = async (token: string, route: string, body?: unknown) => {
  const response = await fetch(`${api}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, never> };
};

const localAccount = { email: 'made-locally@example.com', password: 'local-password' };

/** Who each account is and which orders it sees, as the API answers after a start. */
const snapshot = async () => {
  const admin = await signIn('admin@example.com', DEMO_PASSWORD);
  const users = await apiCall(admin, '/api/admin/users?limit=100');
  const photographer = await signIn('photographer@example.com', DEMO_PASSWORD);
  const local = await signIn(localAccount.email, localAccount.password);
  return {
    emails: (users.body.users as unknown as { email: string }[]).map((u) => u.email).sort(),
    ids: Object.fromEntries(
      await Promise.all(
        [...demoAccounts.map((a) => [a.email, DEMO_PASSWORD]), [localAccount.email, localAccount.password]].map(
          async ([email, password]) => [
            email,
            (await apiCall(await signIn(email!, password!), '/api/auth/me')).body.id,
          ],
        ),
      ),
    ),
    photographerOrders: (
      (await apiCall(photographer, '/api/orders/my')).body.orders as unknown as { id: string }[]
    ).map((o) => o.id),
    localOrders: ((await apiCall(local, '/api/orders/my')).body.orders as unknown as { id: string }[]).map((o) => o.id),
  };
};

afterAll(async () => {
  if (running) await stop(running, 'SIGINT');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run dev, stopped and started again', () => {
  it(
    'keeps one account per person, and their orders, across SIGTERM and SIGHUP stops',
    { timeout: 300_000 },
    async () => {
      rmSync(dataDir, { recursive: true, force: true });
      let child = await start();
      const photographer = await signIn('photographer@example.com', DEMO_PASSWORD);
      const order = await apiCall(photographer, '/api/orders', {
        jobTypeId: 'hdr',
        photoCount: 2,
        name: 'Before the restart',
      });
      expect(order.status).toBe(201);
      const local = await signUp(localAccount.email, localAccount.password);
      expect((await apiCall(local, '/api/auth/me')).status).toBe(200);
      const localOrder = await apiCall(local, '/api/orders', { jobTypeId: 'hdr', photoCount: 1 });
      expect(localOrder.status).toBe(201);
      const before = await snapshot();
      expect(before.emails).toEqual([...demoAccounts.map((a) => a.email), localAccount.email].sort());
      expect(before.photographerOrders).toEqual([(order.body as unknown as { order: { id: string } }).order.id]);
      expect(before.localOrders).toEqual([(localOrder.body as unknown as { order: { id: string } }).order.id]);

      // A second start beside it (a second terminal) refuses, and stops nothing of the first.
      const second = spawn('npm', ['run', 'dev'], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, DEV_PORT_OFFSET: String(offset), DEV_DATA_DIR: dataDir },
      });
      let secondOutput = '';
      second.stdout?.on('data', (chunk: Buffer) => {
        secondOutput += chunk.toString();
      });
      second.stderr?.on('data', (chunk: Buffer) => {
        secondOutput += chunk.toString();
      });
      const secondCode = await new Promise((resolve) => second.once('exit', resolve));
      expect(secondCode).not.toBe(0);
      expect(secondOutput).toContain('is already in use: is another copy of the marketplace running?');
      expect(await snapshot(), 'beside a refused second start').toEqual(before);

      for (const signal of ['SIGTERM', 'SIGHUP', 'SIGKILL'] as const) {
        await stop(child, signal);
        child = await start();
        expect(await snapshot(), `after a ${signal} stop`).toEqual(before);
      }
    },
  );
});
