import { sharePageHeaders } from '../events/src/delivery';

/**
 * The response headers of the web app, defined once: CloudFront sends them in the cloud (the web
 * stack's response headers policy) and Vite's preview server sends them locally, so the browser
 * tests run the built app under the very policy production enforces. Only the origins differ.
 */
export interface SiteOrigins {
  /** Where the browser uploads photos and reads them back with presigned URLs (the photos bucket, or its local stand-in). */
  photos: readonly string[];
  /** Firebase Auth's REST hosts (identitytoolkit, securetoken), or the auth emulator. */
  firebaseAuthApis: readonly string[];
  /** Firebase's auth domain, whose page the sign-in popup helper frames (https://<project>.firebaseapp.com). */
  firebaseAuthFrames: readonly string[];
  /** Scripts Firebase loads for the popup sign-in (Google's gapi loader). */
  firebaseAuthScripts: readonly string[];
  /** Stripe's API, or the local Stripe fake the test-card form confirms against. */
  stripeApis: readonly string[];
}

/** What Stripe.js loads (docs.stripe.com/security/guide#content-security-policy): its script, its frames, its API. */
export const stripeScripts = ['https://js.stripe.com', 'https://*.js.stripe.com'];
export const stripeFrames = [
  'https://js.stripe.com',
  'https://*.js.stripe.com',
  'https://hooks.stripe.com',
  'https://m.stripe.network',
];

/** The cloud's origins: Firebase Auth's hosts, Stripe, and the photos bucket's regional virtual-hosted endpoint. */
export const cloudOrigins = ({
  photosBucketOrigin,
  firebaseAuthDomain,
}: {
  photosBucketOrigin: string;
  firebaseAuthDomain: string;
}): SiteOrigins => ({
  photos: [photosBucketOrigin],
  firebaseAuthApis: ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'],
  firebaseAuthFrames: [`https://${firebaseAuthDomain}`],
  firebaseAuthScripts: ['https://apis.google.com'],
  stripeApis: ['https://api.stripe.com'],
});

const directive = (name: string, ...sources: readonly string[]) => [name, ...sources].join(' ');

/**
 * The content security policy: scripts only from this site and Stripe (no inline script, no eval),
 * inline styles because Mantine sets style attributes and injects its CSS variables, images from
 * the site, the photos bucket, and blob:/data: for the thumbnails the browser draws before upload.
 */
export const contentSecurityPolicy = (origins: SiteOrigins) =>
  [
    directive('default-src', "'self'"),
    directive('script-src', "'self'", ...stripeScripts, ...origins.firebaseAuthScripts),
    directive('style-src', "'self'", "'unsafe-inline'"),
    directive('img-src', "'self'", 'data:', 'blob:', ...origins.photos),
    directive('font-src', "'self'", 'data:'),
    directive('connect-src', "'self'", ...origins.photos, ...origins.firebaseAuthApis, ...origins.stripeApis),
    directive('frame-src', ...stripeFrames, ...origins.firebaseAuthFrames),
    directive('worker-src', "'self'", 'blob:'),
    directive('manifest-src', "'self'"),
    directive('object-src', "'none'"),
    directive('base-uri', "'self'"),
    directive('form-action', "'self'"),
    directive('frame-ancestors', "'none'"),
  ].join('; ');

/** Two years, with subdomains: the value the HSTS preload list asks for. */
export const hstsMaxAgeSeconds = 63_072_000;

/** Every header the site sends, by name. */
export const securityHeaders = (origins: SiteOrigins): Record<string, string> => ({
  'Content-Security-Policy': contentSecurityPolicy(origins),
  'Strict-Transport-Security': `max-age=${hstsMaxAgeSeconds}; includeSubDomains; preload`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // Stripe's frame may ask for the Payment Request API (wallets); nothing else needs a device.
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://js.stripe.com")',
});

/** Where the share pages are: a client's gallery, opened from a link that holds its token. */
export const sharePagePattern = '/share/*';
export const isSharePagePath = (path: string) => path.startsWith('/share/');

/** The share page's headers: the site's, with noindex, and no referrer in place of the site's policy. */
export const sharePageSecurityHeaders = (origins: SiteOrigins): Record<string, string> => ({
  ...securityHeaders(origins),
  ...sharePageHeaders,
});
