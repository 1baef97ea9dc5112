import { describe, expect, it } from 'vitest';
import { ReadableStream, TransformStream } from '../lib/bundling/node-stream-web-on-use.mjs';

// The stand-in the Lambda bundles use for node:stream/web, which only streamed responses need
// (infra/lib/bundling/options.ts): it must behave as the module it replaces when it is used.
describe('the bundle stand-in for node:stream/web', () => {
  it('gives the web streams of Node itself, on first use', async () => {
    const stream = new ReadableStream({
      start(controller: ReadableStreamDefaultController<string>) {
        controller.enqueue('a');
        controller.close();
      },
    });
    expect(stream).toBeInstanceOf(globalThis.ReadableStream);
    expect(stream instanceof ReadableStream).toBe(true);
    expect({} instanceof ReadableStream).toBe(false);
    expect(new TransformStream()).toBeInstanceOf(globalThis.TransformStream);
    const chunks: string[] = [];
    for await (const chunk of ReadableStream.from(['x', 'y']) as AsyncIterable<string>) chunks.push(chunk);
    expect(chunks).toEqual(['x', 'y']);
  });

  it("lets a class extend them, as a class can extend Node's own", async () => {
    class Named extends ReadableStream<string> {
      name() {
        return 'named';
      }
    }
    const stream = new Named();
    expect(stream).toBeInstanceOf(Named);
    expect(stream).toBeInstanceOf(globalThis.ReadableStream);
    expect(stream.name()).toBe('named');
    expect(stream.locked).toBe(false);
  });
});
