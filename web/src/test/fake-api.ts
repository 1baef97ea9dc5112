import { vi } from 'vitest';

/** A stand-in for the marketplace API at the network boundary: answers fetch() by method and path. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string's parameters, e.g. a list's limit and cursor. */
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Responder = (request: RecordedRequest) => { status: number; body?: unknown };

const routes = new Map<string, Responder>();
export const apiRequests: RecordedRequest[] = [];

export const fakeApi = {
  reset() {
    routes.clear();
    apiRequests.length = 0;
    fakeApi.fetch.mockClear();
  },
  on(method: string, path: string, respond: Responder | { status: number; body?: unknown }) {
    routes.set(`${method} ${path}`, typeof respond === 'function' ? respond : () => respond);
  },
  requestsTo(method: string, path: string) {
    return apiRequests.filter((request) => request.method === method && request.path === path);
  },
  fetch: vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body,
    };
    apiRequests.push(request);
    const respond = routes.get(`${method} ${url.pathname}`);
    const { status, body: responseBody } = respond
      ? respond(request)
      : { status: 404, body: { error: 'NOT_FOUND', message: 'Not found' } };
    return new Response(responseBody === undefined ? null : JSON.stringify(responseBody), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  }),
};
