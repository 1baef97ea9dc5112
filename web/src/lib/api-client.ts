import { getIdToken } from './auth';
import { LOGIN_PATH } from './login-redirect';

/**
 * Calls made by people who are not signed in, so they never carry a token: the invitation's two,
 * a shared gallery's (a client with no account; the link's own token is the credential), and an
 * email's unsubscribe link.
 */
const TOKENLESS_URL_PARTS = [
  '/api/auth/verify-invitation',
  '/api/auth/complete-signup',
  '/api/share/',
  // An email's unsubscribe link: its own token is the credential, whoever opens it.
  '/api/unsubscribe',
];

/** An API failure carrying the server's `{ error, message }` so a screen can show the server's words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's machine-readable `error` field, e.g. VALIDATION_FAILED. */
    readonly code: string | undefined,
    /** The server's human `message` field. */
    readonly serverMessage: string | undefined,
    /** The server's `details`, when the error carries some (e.g. the version a conflicting save met). */
    readonly details?: unknown,
  ) {
    super(serverMessage ?? code ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
  }
}

/** The text to show for a failed call: the server's message, else its error field, else the screen's fallback. */
export const apiErrorText = (error: unknown, fallback: string): string =>
  error instanceof ApiError ? (error.serverMessage ?? error.code ?? fallback) : fallback;

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart form data; the browser sets the content type and boundary. */
  formData?: FormData;
  responseType?: 'json' | 'blob';
  timeoutMs?: number;
  signal?: AbortSignal;
}

const authorizationHeader = async (url: string): Promise<string | undefined> => {
  if (TOKENLESS_URL_PARTS.some((part) => url.includes(part))) return undefined;
  try {
    const token = await getIdToken();
    return token ? `Bearer ${token}` : undefined;
  } catch (error) {
    console.error('Could not get an ID token; sending the request without authorization', error);
    return undefined;
  }
};

const readErrorBody = async (
  response: Response,
): Promise<{ error?: unknown; message?: unknown; details?: unknown }> => {
  try {
    const body: unknown = await response.json();
    return body && typeof body === 'object' ? body : {};
  } catch {
    return {};
  }
};

const textOrUndefined = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

const sendToLogin = () => {
  // The login page itself may call the API (to learn roles); sending it to itself would loop.
  if (window.location.pathname !== LOGIN_PATH) window.location.assign(LOGIN_PATH);
};

const requestSignal = (options: ApiRequestOptions): AbortSignal | undefined => {
  const signals = [options.signal, options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined].filter(
    (signal): signal is AbortSignal => signal !== undefined,
  );
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
};

export async function apiRequest<T>(url: string, options: ApiRequestOptions = {}): Promise<T> {
  const headers = new Headers();
  if (!options.formData) headers.set('Content-Type', 'application/json');
  const authorization = await authorizationHeader(url);
  if (authorization) headers.set('Authorization', authorization);

  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body: options.formData ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
    signal: requestSignal(options),
  });

  if (!response.ok) {
    if (response.status === 401) sendToLogin();
    const body = await readErrorBody(response);
    throw new ApiError(response.status, textOrUndefined(body.error), textOrUndefined(body.message), body.details);
  }
  if (options.responseType === 'blob') return (await response.blob()) as T;
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

export const apiGet = <T>(url: string) => apiRequest<T>(url);
export const apiPost = <T>(url: string, json?: unknown) => apiRequest<T>(url, { method: 'POST', json });
export const apiPatch = <T>(url: string, json?: unknown) => apiRequest<T>(url, { method: 'PATCH', json });
export const apiPut = <T>(url: string, json?: unknown) => apiRequest<T>(url, { method: 'PUT', json });
export const apiDelete = <T>(url: string) => apiRequest<T>(url, { method: 'DELETE' });
