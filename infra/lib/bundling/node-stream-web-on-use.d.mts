// The stand-in offers Node's own classes (see the .mjs).
export { ReadableStream, TransformStream, WritableStream } from 'node:stream/web';
