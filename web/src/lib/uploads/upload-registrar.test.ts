import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { uploadRegistrar } from './upload-registrar';

const COMPLETE = '/api/orders/order-1/uploads/complete';
const file = (name: string) => ({ key: `orders/order-1/originals/u-${name}`, filename: name });

describe('registering uploaded files with the API', () => {
  it('sends the first file at once and the files that finish meanwhile together in the next call', async () => {
    fakeApi.on('POST', COMPLETE, { status: 200, body: {} });
    const register = uploadRegistrar(COMPLETE, 25);
    await Promise.all(['a.jpg', 'b.jpg', 'c.jpg'].map((name) => register(file(name))));
    expect(fakeApi.requestsTo('POST', COMPLETE).map((request) => request.body)).toEqual([
      file('a.jpg'),
      { files: [file('b.jpg'), file('c.jpg')] },
    ]);
  });

  it('sends no more files in one call than allowed, and each on its own call with a limit of 1', async () => {
    fakeApi.on('POST', COMPLETE, { status: 200, body: {} });
    const batched = uploadRegistrar(COMPLETE, 2);
    await Promise.all(['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg'].map((name) => batched(file(name))));
    expect(fakeApi.requestsTo('POST', COMPLETE).map((request) => request.body)).toEqual([
      file('a.jpg'),
      { files: [file('b.jpg'), file('c.jpg')] },
      file('d.jpg'),
    ]);
    fakeApi.reset();
    fakeApi.on('POST', COMPLETE, { status: 200, body: {} });
    const single = uploadRegistrar(COMPLETE, 1);
    await Promise.all(['a.jpg', 'b.jpg'].map((name) => single(file(name))));
    expect(fakeApi.requestsTo('POST', COMPLETE).map((request) => request.body)).toEqual([file('a.jpg'), file('b.jpg')]);
  });

  it('asks again file by file when a batch is refused, so only the refused file fails, with its reason', async () => {
    fakeApi.on('POST', COMPLETE, ({ body }) => {
      const named = JSON.stringify(body);
      if (named.includes('ghost.jpg')) {
        return { status: 404, body: { error: 'NOT_FOUND', message: 'ghost.jpg has not arrived in storage yet.' } };
      }
      return { status: 200, body: {} };
    });
    const register = uploadRegistrar(COMPLETE, 25);
    const outcomes = await Promise.allSettled(['a.jpg', 'b.jpg', 'ghost.jpg'].map((name) => register(file(name))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((outcomes[2] as PromiseRejectedResult).reason.serverMessage).toBe(
      'ghost.jpg has not arrived in storage yet.',
    );
    expect(fakeApi.requestsTo('POST', COMPLETE).map((request) => request.body)).toEqual([
      file('a.jpg'),
      { files: [file('b.jpg'), file('ghost.jpg')] },
      file('b.jpg'),
      file('ghost.jpg'),
    ]);
  });
});
