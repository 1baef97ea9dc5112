import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../lib/settings';

const appWithContext = (context: Record<string, string> = {}) => new App({ context });

describe('settings', () => {
  it('need nothing configured: the demo Firebase project and no extra CORS origin', () => {
    const settings = readSettings(appWithContext(), {});
    expect(settings.firebaseProjectId).toBe('demo-marketplace');
    expect(settings.extraCorsOrigin).toBeUndefined();
    expect(settings.webDistPath).toMatch(/web[/\\]dist$/);
  });

  it('take CDK context over the environment', () => {
    const settings = readSettings(appWithContext({ firebaseProjectId: 'acme-photos' }), {
      FIREBASE_PROJECT_ID: 'other-project',
      EXTRA_CORS_ORIGIN: 'http://localhost:5173',
    });
    expect(settings.firebaseProjectId).toBe('acme-photos');
    expect(settings.extraCorsOrigin).toBe('http://localhost:5173');
  });

  it('refuse a CORS origin with a path, which S3 would never match', () => {
    expect(() => readSettings(appWithContext({ extraCorsOrigin: 'http://localhost:5173/' }), {})).toThrow(
      /bare origin/,
    );
  });

  it('take the alarms email address from context, then ALARM_EMAIL, and none by default', () => {
    expect(readSettings(appWithContext(), {}).alarmEmail).toBeUndefined();
    expect(readSettings(appWithContext(), { ALARM_EMAIL: 'ops@example.com' }).alarmEmail).toBe('ops@example.com');
    expect(
      readSettings(appWithContext({ alarmEmail: 'oncall@example.com' }), { ALARM_EMAIL: 'ops@example.com' }).alarmEmail,
    ).toBe('oncall@example.com');
  });

  it('take the Firebase web API key from context, then FIREBASE_API_KEY, and none by default', () => {
    expect(readSettings(appWithContext(), {}).firebaseApiKey).toBeUndefined();
    expect(readSettings(appWithContext(), { FIREBASE_API_KEY: 'AIza-env' }).firebaseApiKey).toBe('AIza-env');
    expect(
      readSettings(appWithContext({ firebaseApiKey: 'AIza-context' }), { FIREBASE_API_KEY: 'AIza-env' }).firebaseApiKey,
    ).toBe('AIza-context');
  });

  it('refuse an alarms email that is not one plain address, which SNS would not deliver to', () => {
    for (const alarmEmail of ['ops', 'Ops <ops@example.com>', 'a@example.com,b@example.com']) {
      expect(() => readSettings(appWithContext({ alarmEmail }), {}), alarmEmail).toThrow(/one email address/);
    }
  });

  it('refuse something that is not a Firebase project id', () => {
    expect(() => readSettings(appWithContext({ firebaseProjectId: 'Acme Photos' }), {})).toThrow(
      /not a Firebase project id/,
    );
  });
});
