import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from 'aws-cdk-lib';

/** The repository root: function entries, the lock file and the web build are found from here. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface MarketplaceSettings {
  /** Firebase project whose ID tokens the API accepts (issuer and audience of the JWT authorizer). */
  firebaseProjectId: string;
  /** One more origin allowed to upload to the photos bucket, e.g. http://localhost:5173 while developing. */
  extraCorsOrigin?: string;
  /** Invitation emails: the SES-verified sender and the site their links open. */
  mailFrom?: string;
  siteUrl?: string;
  /** Who the alarms email (an SNS email subscription, confirmed from the first message SNS sends). */
  alarmEmail?: string;
  /**
   * The Firebase project's web API key (public, the web app's VITE_FIREBASE_API_KEY): the routes
   * set a new password at Identity Toolkit as the user with it (docs/decisions/0103).
   */
  firebaseApiKey?: string;
  /** The built React app; deployed only when it exists at synth time. */
  webDistPath: string;
}

export const defaultFirebaseProjectId = 'demo-marketplace';

// Stripe's keys are no setting: they live in the data stack's secret, written by the operator,
// and the publishable key in web/.env.production. None goes through CDK context or the template.

const firebaseProjectIdPattern = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

const readFirebaseProjectId = (value: string) => {
  if (!firebaseProjectIdPattern.test(value)) {
    throw new Error(
      `firebaseProjectId "${value}" is not a Firebase project id (6-30 lowercase letters, digits, hyphens)`,
    );
  }
  return value;
};

const readOrigin = (value: string) => {
  const origin = URL.canParse(value) ? new URL(value).origin : undefined;
  // CORS compares origins exactly, so a path or trailing slash would silently never match.
  if (origin !== value)
    throw new Error(`extraCorsOrigin "${value}" must be a bare origin such as http://localhost:5173`);
  return value;
};

// One address, as SNS's email protocol takes it: no display name, no list.
const emailPattern = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;

const readAlarmEmail = (value: string) => {
  if (!emailPattern.test(value))
    throw new Error(`alarmEmail "${value}" must be one email address such as ops@example.com`);
  return value;
};

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * Settings come from CDK context (`-c firebaseProjectId=...`), then the environment, then defaults,
 * so `cdk synth` works with nothing configured.
 */
export const readSettings = (app: App, env: NodeJS.ProcessEnv = process.env): MarketplaceSettings => {
  const context = (key: string) => nonEmpty(app.node.tryGetContext(key));
  const extraCorsOrigin = context('extraCorsOrigin') ?? nonEmpty(env.EXTRA_CORS_ORIGIN);
  const mailFrom = context('mailFrom') ?? nonEmpty(env.MAIL_FROM);
  const siteUrl = context('siteUrl') ?? nonEmpty(env.SITE_URL);
  const alarmEmail = context('alarmEmail') ?? nonEmpty(env.ALARM_EMAIL);
  const firebaseApiKey = context('firebaseApiKey') ?? nonEmpty(env.FIREBASE_API_KEY);
  return {
    firebaseProjectId: readFirebaseProjectId(
      context('firebaseProjectId') ?? nonEmpty(env.FIREBASE_PROJECT_ID) ?? defaultFirebaseProjectId,
    ),
    ...(extraCorsOrigin ? { extraCorsOrigin: readOrigin(extraCorsOrigin) } : {}),
    ...(mailFrom ? { mailFrom } : {}),
    ...(siteUrl ? { siteUrl: readOrigin(siteUrl) } : {}),
    ...(alarmEmail ? { alarmEmail: readAlarmEmail(alarmEmail) } : {}),
    ...(firebaseApiKey ? { firebaseApiKey } : {}),
    webDistPath: join(repoRoot, 'web', 'dist'),
  };
};
