import * as z from './zod';

/**
 * An IANA time zone the runtime knows (Intl), such as "Europe/Berlin": the zone a person reads
 * their days in (the billing statement's month, the Insights' days).
 */
export const timeZone = /* @__PURE__ */ z.schema(() =>
  z.string().check(
    z.maxLength(100),
    z.refine((zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'Unknown time zone'),
  ),
);
