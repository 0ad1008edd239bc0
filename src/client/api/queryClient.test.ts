import type { QueryFunctionContext } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, getQueryFn, pathFromKey } from './queryClient';

afterEach(() => {
  vi.unstubAllGlobals();
});

const context = (queryKey: unknown[]) =>
  ({ queryKey, signal: new AbortController().signal, meta: undefined }) as unknown as QueryFunctionContext;

describe('pathFromKey', () => {
  it('joins the key segments with slashes', () => {
    expect(pathFromKey(['/api/medical-records', 'abc'])).toBe('/api/medical-records/abc');
    expect(pathFromKey(['/api/appointments/patient', 'u1'])).toBe('/api/appointments/patient/u1');
  });

  it('escapes segments after the first', () => {
    expect(pathFromKey(['/api/download', 'a b/c'])).toBe('/api/download/a%20b%2Fc');
  });

  it('turns an object segment into a query string without empty values', () => {
    expect(pathFromKey(['/api/audit-logs', { page: 2, action: 'login', q: '', user: undefined }])).toBe(
      '/api/audit-logs?page=2&action=login',
    );
  });
});

describe('default query function', () => {
  it('GETs the joined path with cookies and parses JSON', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response('[1,2]', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const data = await getQueryFn({ on401: 'throw' })(context(['/api/patients']));
    expect(data).toEqual([1, 2]);
    expect(fetchMock.mock.calls[0][0]).toBe('/api/patients');
    expect(fetchMock.mock.calls[0][1]?.credentials).toBe('include');
  });

  it('throws on 401 by default', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>().mockResolvedValue(new Response('{"message":"Not signed in"}', { status: 401 })),
    );
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/auth/me']))).rejects.toThrow(
      '401: {"message":"Not signed in"}',
    );
  });

  it('returns null on 401 when asked to', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response('', { status: 401 })));
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/auth/me']))).resolves.toBeNull();
  });

  it('still throws other failures when 401 returns null', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn<typeof fetch>()
        .mockResolvedValue(new Response('', { status: 500, statusText: 'Internal Server Error' })),
    );
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/x']))).rejects.toThrow(
      '500: Internal Server Error',
    );
  });
});

describe('query client defaults', () => {
  it('never retries, never refetches on focus, never goes stale', () => {
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(defaults?.retry).toBe(false);
    expect(defaults?.refetchOnWindowFocus).toBe(false);
    expect(defaults?.staleTime).toBe(Infinity);
  });
});
