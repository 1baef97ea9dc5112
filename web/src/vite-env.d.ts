/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_FIREBASE_API_KEY?: string;
  readonly VITE_FIREBASE_AUTH_DOMAIN?: string;
  readonly VITE_FIREBASE_PROJECT_ID?: string;
  readonly VITE_FIREBASE_APP_ID?: string;
  /** e.g. http://127.0.0.1:9099; when set, sign-in goes to the Firebase Auth emulator. */
  readonly VITE_FIREBASE_AUTH_EMULATOR_URL?: string;
  /** Stripe's publishable key; when set, the payment step shows Stripe's Payment Element. */
  readonly VITE_STRIPE_PUBLISHABLE_KEY?: string;
  /** e.g. http://127.0.0.1:12111; without a publishable key, the test-card form confirms against this Stripe fake. */
  readonly VITE_LOCAL_STRIPE_URL?: string;
  readonly VITE_LOCAL_STRIPE_PUBLISHABLE_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
