// The component tests' one fake: the network edge. `fetch` and XMLHttpRequest (uploads, for their
// progress) answer from a table of routes and record every call, so a test sees what the component
// sent, through the real hooks, query client and request helpers.
import { vi } from 'vitest';

export interface Call {
  method: string;
  /** The path with its query, e.g. "/api/admin/users?page=1". */
  url: string;
  /** A JSON body parsed; a FormData body as its entries; else undefined. */
  body: unknown;
}

export interface Reply {
  status?: number;
  body?: unknown;
}

/** "METHOD /path" (without the query) -> the answer, or a function of the call. */
export type Routes = Record<string, Reply | ((call: Call) => Reply)>;

function parseBody(body: unknown): unknown {
  if (typeof body === 'string') return body ? (JSON.parse(body) as unknown) : undefined;
  if (body instanceof FormData) return [...body.entries()];
  return undefined;
}

function answer(routes: Routes, call: Call): Required<Reply> {
  const path = new URL(call.url, 'http://localhost').pathname;
  const route = routes[`${call.method} ${path}`];
  if (!route) return { status: 501, body: { message: `No test route for ${call.method} ${path}` } };
  const reply = typeof route === 'function' ? route(call) : route;
  return { status: reply.status ?? 200, body: reply.body ?? null };
}

/** Replaces fetch and XMLHttpRequest for the test (setup.ts restores them after it). */
export function fakeNetwork(routes: Routes) {
  const calls: Call[] = [];
  const record = (method: string, url: string, body: unknown) => {
    const { pathname, search } = new URL(url, 'http://localhost');
    const call = { method, url: pathname + search, body: parseBody(body) };
    calls.push(call);
    return call;
  };

  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const call = record(init.method ?? 'GET', url, init.body);
    const { status, body } = answer(routes, call);
    return new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });

  class FakeXhr {
    method = 'GET';
    url = '';
    withCredentials = false;
    status = 0;
    statusText = '';
    responseText = '';
    upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } =
      {};
    onload?: () => void;
    onerror?: () => void;
    onabort?: () => void;
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader() {}
    abort() {
      this.onabort?.();
    }
    send(body: unknown) {
      const call = record(this.method, this.url, body);
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 1 });
        const reply = answer(routes, call);
        this.status = reply.status;
        this.responseText = reply.body === null ? '' : JSON.stringify(reply.body);
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);

  return {
    calls,
    /** The calls made to "METHOD /path". */
    to: (route: string) =>
      calls.filter((c) => `${c.method} ${new URL(c.url, 'http://localhost').pathname}` === route),
  };
}
