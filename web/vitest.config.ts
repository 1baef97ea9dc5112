import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  root: import.meta.dirname,
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // One module cache per worker: the libraries (React, Mantine, Testing Library) load once per
    // worker instead of once per file, which took more than half of this project's CPU time. Our
    // own modules, the page's storage and its address start afresh in each file (src/test/setup.ts).
    isolate: false,
    testTimeout: 30_000,
    // Component tests run with a configured (faked) Firebase project unless a test says otherwise.
    env: {
      VITE_FIREBASE_API_KEY: 'test-api-key',
      VITE_FIREBASE_AUTH_DOMAIN: 'test.firebaseapp.com',
      VITE_FIREBASE_PROJECT_ID: 'demo-test',
      VITE_FIREBASE_APP_ID: 'test-app-id',
    },
  },
});
