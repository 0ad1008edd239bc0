// The default query loader and the query client of docs/spec.md#calls: GET on the key segments
// joined with '/', parsed as JSON; no retry, no refetch on window focus, data never stale.
import { QueryCache, QueryClient, type QueryFunction, type QueryKey } from '@tanstack/react-query';
import { apiJson, errorStatus } from './request';

type QueryParamValue = string | number | boolean | null | undefined;

/**
 * ['/api/patients', id] -> '/api/patients/<id>'. A plain object segment becomes the query
 * string (empty values left out): ['/api/audit-logs', {page: 2}] -> '/api/audit-logs?page=2'.
 */
export function pathFromKey(queryKey: QueryKey): string {
  const segments: string[] = [];
  const params = new URLSearchParams();
  for (const part of queryKey) {
    if (part && typeof part === 'object') {
      for (const [name, value] of Object.entries(part as Record<string, QueryParamValue>)) {
        if (value !== undefined && value !== null && value !== '') params.append(name, String(value));
      }
    } else if (typeof part === 'string' || typeof part === 'number' || typeof part === 'boolean') {
      if (part !== '') segments.push(String(part));
    }
  }
  const path = segments.map((s, i) => (i === 0 ? s.replace(/\/+$/, '') : encodeURIComponent(s))).join('/');
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

export type UnauthorizedBehavior = 'throw' | 'returnNull';

export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    try {
      return await apiJson<T>('GET', pathFromKey(queryKey), undefined, signal);
    } catch (error) {
      if (options.on401 === 'returnNull' && errorStatus(error) === 401) return null;
      throw error;
    }
  };
}

let onUnauthorized: (() => void) | undefined;

/** The auth provider registers how a 401 from any query ends the local session. */
export function setUnauthorizedHandler(handler: (() => void) | undefined) {
  onUnauthorized = handler;
}

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (errorStatus(error) === 401) onUnauthorized?.();
      },
    }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Infinity,
      },
      mutations: { retry: false },
    },
  });
}
