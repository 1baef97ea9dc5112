import { en } from 'zod/locales';
import { config } from 'zod/mini';

/**
 * zod for every schema we write: `zod/mini`, whose functional API lets a bundle keep only the
 * parts its schemas use and builds schemas with less work at load (docs/decisions/0077-validation-with-zod-mini.md).
 * Unlike `zod`, it loads no locale, so the English messages the API and the forms answer
 * are loaded here, by the module every schema is built from.
 *
 *   import * as z from '@marketplace/events/zod';   (within events: './zod')
 */
config(en());

export * from 'zod/mini';

/**
 * A schema a module defines at its top level, written so that a bundle which never uses it leaves
 * it out instead of building it at load:
 *
 *   export const thingInput = /* @__PURE__ *\/ z.schema(() => z.object({ ... }));
 *
 * It returns what `build` returns, built at once, so the name's value and type are as without it.
 * Bundlers keep any call whose result is unused, since a call may have side effects; the
 * `@__PURE__` mark at the call says this one has none, and its only argument, a function, has
 * none either, so esbuild (the functions) and Rollup (the web app) drop the whole statement when
 * nothing reads the name. `@__NO_SIDE_EFFECTS__` here would say the same for every call, but
 * esbuild honours it only within this module, so each call is marked where it is written.
 * Tested by infra/test/bundling-unused-schemas.test.ts (docs/decisions/0113-schemas-dropped-when-unused.md).
 */
export const schema = /* @__NO_SIDE_EFFECTS__ */ <T>(build: () => T): T => build();
