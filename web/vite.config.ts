import type { ServerResponse } from 'node:http';
import react from '@vitejs/plugin-react';
import { type Connect, defineConfig, loadEnv, type Plugin } from 'vite';
import { sharePageHeaders } from '../events/src/delivery';
import { cloudOrigins, isSharePagePath, type SiteOrigins, securityHeaders } from './security-headers';

/**
 * `/api` to the local gateway, and `/live` (the live-updates WebSocket) to the local live gateway,
 * as CloudFront does in the cloud. X-Forwarded-For carries each browser's address, so the gateway
 * limits each browser, as WAF limits each viewer, rather than this server's one address.
 */
const localStackProxy = {
  '/api': { target: process.env.API_PROXY_TARGET ?? 'http://localhost:3000', changeOrigin: true, xfwd: true },
  '/live': { target: process.env.LIVE_PROXY_TARGET ?? 'ws://localhost:3001', ws: true },
};

const originOf = (url: string | undefined) => (url ? [new URL(url).origin] : []);

/**
 * The origins the app reaches when it runs on the local stack: the auth emulator, the S3 stand-in
 * (PHOTOS_ORIGIN) and the Stripe fake; the API is this server's own /api proxy. Without an
 * emulator the app talks to the real Firebase and Stripe, so their cloud origins apply.
 */
const localOrigins = (env: Record<string, string | undefined>): SiteOrigins => {
  const cloud = cloudOrigins({ photosBucketOrigin: '', firebaseAuthDomain: env.VITE_FIREBASE_AUTH_DOMAIN ?? '' });
  const emulator = originOf(env.VITE_FIREBASE_AUTH_EMULATOR_URL);
  return {
    photos: originOf(env.PHOTOS_ORIGIN ?? env.S3_ENDPOINT),
    ...(emulator.length
      ? { firebaseAuthApis: emulator, firebaseAuthFrames: [], firebaseAuthScripts: [] }
      : {
          firebaseAuthApis: cloud.firebaseAuthApis,
          firebaseAuthFrames: cloud.firebaseAuthFrames,
          firebaseAuthScripts: cloud.firebaseAuthScripts,
        }),
    stripeApis: env.VITE_LOCAL_STRIPE_URL ? originOf(env.VITE_LOCAL_STRIPE_URL) : cloud.stripeApis,
  };
};

/**
 * The share page's noindex and no-referrer on both local servers, as CloudFront's /share/*
 * behaviour sends them. Vite sets its own headers (the preview's whole set, its referrer policy
 * included) as it writes the page, so these are set as the response head goes out, over those.
 */
const sharePageHeadersPlugin = (headers: Record<string, string>): Plugin => {
  const middleware: Connect.NextHandleFunction = (req, res: ServerResponse, next) => {
    if (isSharePagePath(req.url ?? '')) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
        for (const [name, value] of Object.entries(headers)) this.setHeader(name, value);
        return writeHead.apply(this, args);
      } as ServerResponse['writeHead'];
    }
    next();
  };
  return {
    name: 'share-page-headers',
    configureServer: (server) => {
      server.middlewares.use(middleware);
    },
    configurePreviewServer: (server) => {
      server.middlewares.use(middleware);
    },
  };
};

export default defineConfig(({ mode }) => {
  const env = { ...loadEnv(mode, import.meta.dirname, ''), ...process.env };
  return {
    root: import.meta.dirname,
    plugins: [react(), sharePageHeadersPlugin(sharePageHeaders)],
    // No headers on the dev server: React Fast Refresh injects an inline script the policy refuses.
    server: { port: 5173, strictPort: true, proxy: localStackProxy },
    // The preview serves the built app exactly as CloudFront does, headers included.
    preview: {
      port: Number(process.env.WEB_PORT ?? 4173),
      strictPort: true,
      proxy: localStackProxy,
      headers: securityHeaders(localOrigins(env)),
    },
    build: { outDir: 'dist' },
  };
});
