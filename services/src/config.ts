import * as z from '@marketplace/events/zod';

/**
 * Everything a handler or worker needs to know about where it runs, read once from the
 * environment. In the cloud the CDK stack sets these; locally the dev stack does. Endpoints are
 * optional: when absent the AWS SDK uses the real service for the region.
 */
const nonEmpty = z.string().check(z.minLength(1));

const configSchema = z.object({
  TABLE_NAME: z._default(nonEmpty, 'marketplace'),
  PHOTOS_BUCKET: z._default(nonEmpty, 'marketplace-photos'),
  AWS_REGION: z._default(nonEmpty, 'us-east-1'),
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  S3_ENDPOINT: z.optional(z.url()),
  SQS_ENDPOINT: z.optional(z.url()),
  /** Queue URLs by logical name, as JSON: {"order-events":"https://sqs..."}; locally the queue runner's names. */
  QUEUE_URLS: z.pipe(
    z._default(z.string(), '{}'),
    z.transform((raw) => z.record(z.string(), z.string()).parse(JSON.parse(raw))),
  ),
  FIREBASE_PROJECT_ID: z._default(nonEmpty, 'demo-marketplace'),
  /** The local auth emulator (host:port): its ID tokens are unsigned, so only their claims are checked. */
  FIREBASE_AUTH_EMULATOR_HOST: z.optional(nonEmpty),
  /**
   * The project's web API key (public, as in the web app's config), for the Identity Toolkit calls a
   * route makes as the signed-in user (a new password, adapters/identity-toolkit.ts); any key with the emulator.
   */
  FIREBASE_API_KEY: z.optional(nonEmpty),
  /** Stripe's API, or the local fake (http://127.0.0.1:12111); Stripe's own when absent. */
  STRIPE_API_URL: z.optional(z.url()),
  /** The secret key and webhook signing secret; in the cloud they come from Secrets Manager (STRIPE_SECRET_ARN). */
  STRIPE_SECRET_KEY: z.optional(nonEmpty),
  STRIPE_WEBHOOK_SECRET: z.optional(nonEmpty),
  /** The Connect endpoint's own signing secret (account and payout events); `connectWebhookSecret` in the secret. */
  STRIPE_CONNECT_WEBHOOK_SECRET: z.optional(nonEmpty),
  STRIPE_SECRET_ARN: z.optional(nonEmpty),
  /**
   * Secrets Manager ARN of a Firebase service account key (JSON), for the identity worker that
   * disables and enables sign-in; unneeded with FIREBASE_AUTH_EMULATOR_HOST (the local emulator).
   */
  FIREBASE_ADMIN_SECRET_ARN: z.optional(nonEmpty),
  /**
   * The key that signs and checks the emails' unsubscribe links (HMAC-SHA256): locally the stack's
   * own, made once and kept; in the cloud a generated Secrets Manager secret, named by its ARN
   * (only the functions granted 'unsubscribe:key' learn it).
   */
  UNSUBSCRIBE_KEY: z.optional(z.string().check(z.minLength(16))),
  UNSUBSCRIBE_KEY_SECRET_ARN: z.optional(nonEmpty),
  /** SES v2's API, or the local stand-in (aws-ses-v2-local); SES itself for the region when absent. */
  SES_ENDPOINT: z.optional(z.url()),
  /**
   * The WebSocket API's management endpoint (https://{api}.execute-api.{region}.amazonaws.com/{stage}),
   * or the local live gateway's; the push worker posts to the browsers' connections there.
   */
  LIVE_ENDPOINT: z.optional(z.url()),
  /** The sender of invitations: an address or domain verified in SES. */
  MAIL_FROM: z._default(z.string().check(z.minLength(3)), 'PhotoEdit Marketplace <no-reply@photoedit.example>'),
  /** Where the web app is served: links in emails point here. */
  SITE_URL: z._default(z.url(), 'http://localhost:5173'),
  LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR']), 'INFO'),
});

export type Config = z.infer<typeof configSchema>;

let cached: Config | undefined;

export const config = (): Config => {
  cached ??= configSchema.parse(process.env);
  return cached;
};

/** For the local stack and tests, which set the environment after modules load. */
export const resetConfig = () => {
  cached = undefined;
};
