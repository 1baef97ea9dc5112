import * as z from './zod';

/**
 * 'Download my data' and 'Delete my account' on /profile (Security). The browser and the API share
 * these shapes; docs/decisions/0106-account-data-download-and-deletion.md says why they are so.
 */

/** A data download's zip (and the link emailed for it) lasts this long; S3 then removes the zip. */
export const DATA_EXPORT_LINK_DAYS = 7;
/** The account's personal fields are removed this long after the owner deletes it. */
export const ACCOUNT_PURGE_AFTER_DAYS = 30;

export const dataExportStatuses = ['preparing', 'ready', 'failed', 'expired'] as const;
export type DataExportStatus = (typeof dataExportStatuses)[number];

/** GET /api/account/data-export (and the answer of POST): the latest request, with a fresh link when ready. */
export interface DataExportView {
  /** null when the account never asked for its data. */
  export: {
    id: string;
    status: DataExportStatus;
    requestedAt: string;
    readyAt: string | null;
    /** When the zip and its link stop working (ready only). */
    expiresAt: string | null;
    sizeBytes: number | null;
    /** A link to download the zip now (ready only). */
    url: string | null;
    filename: string | null;
  } | null;
}

export const DATA_EXPORT_RUNNING_MESSAGE =
  'Your data is already being prepared. We will email you a link when it is ready; you can ask again after that.';

/** What the browser must type to delete the account. */
export const DELETE_CONFIRMATION = 'DELETE';

export const deleteAccountInput = /* @__PURE__ */ z.schema(() =>
  z.strictObject({
    confirmation: z.string({ error: `Type ${DELETE_CONFIRMATION} to confirm` }).check(
      z.maxLength(20, `Type ${DELETE_CONFIRMATION} to confirm`),
      z.refine((value) => value === DELETE_CONFIRMATION, `Type ${DELETE_CONFIRMATION} (in capital letters) to confirm`),
    ),
  }),
);
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

/** DELETE answer: when the personal fields go. */
export interface AccountDeletedView {
  deletedAt: string;
  purgeAfter: string;
}

/** Codes of the 409s that say what to finish before deleting. */
export const ORDERS_IN_PROGRESS = 'ORDERS_IN_PROGRESS';
export const CLAIMED_ORDERS = 'CLAIMED_ORDERS';
