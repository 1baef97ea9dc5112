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

  it('refuse something that is not a Firebase project id', () => {
    expect(() => readSettings(appWithContext({ firebaseProjectId: 'Acme Photos' }), {})).toThrow(
      /not a Firebase project id/,
    );
  });
});
