import * as z from './zod';

/** Roles in the order the web app uses to pick a landing page: admin first. */
export const roles = ['admin', 'editor', 'photographer'] as const;
export const role = /* @__PURE__ */ z.schema(() => z.enum(roles));
export type Role = z.infer<typeof role>;

export const userStatuses = ['verified', 'invited', 'suspended'] as const;
export type UserStatus = (typeof userStatuses)[number];
