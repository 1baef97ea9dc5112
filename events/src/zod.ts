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
