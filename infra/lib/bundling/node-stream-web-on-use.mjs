// Stands in for node:stream/web in the Lambda bundles. @middy/core imports ReadableStream from it
// for its streamed responses only, which no function of ours sends; importing the module makes Node
// load the rest of its web-streams implementation while the function starts (0.75 ms after the
// AWS SDK's imports, measured). The class is also a global of Node's, loaded the first time it is
// touched: this proxy reaches that global only when ReadableStream is actually used, so
// `instanceof`, `new` and its statics behave as Node's own.
// See docs/decisions/0081-module-closures-compiled-once.md.
const onUse = (name) =>
  // biome-ignore lint/complexity/useArrowFunction: the target must be constructible for `new` to reach the trap.
  new Proxy(function () {}, {
    get: (_target, key) => Reflect.get(globalThis[name], key),
    has: (_target, key) => Reflect.has(globalThis[name], key),
    // newTarget keeps a subclass's prototype: `class Mine extends ReadableStream` makes a Mine.
    construct: (_target, args, newTarget) => Reflect.construct(globalThis[name], args, newTarget),
    apply: (_target, self, args) => Reflect.apply(globalThis[name], self, args),
  });

export const ReadableStream = onUse('ReadableStream');
export const WritableStream = onUse('WritableStream');
export const TransformStream = onUse('TransformStream');
