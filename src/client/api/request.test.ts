import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiJson, apiRequest, errorMessage, errorStatus } from './request';

function stubFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('sends cookies and a JSON content type with a JSON body', async () => {
    const fetchMock = stubFetch(new Response('{}', { status: 200 }));
    await apiRequest('POST', '/api/auth/login', { email: 'a@b.c' });
    const [path, init] = fetchMock.mock.calls[0];
    expect(path).toBe('/api/auth/login');
    expect(init?.credentials).toBe('include');
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(init?.body).toBe('{"email":"a@b.c"}');
  });

  it('sends no content type and no body without a body', async () => {
    const fetchMock = stubFetch(new Response(null, { status: 204 }));
    await apiRequest('POST', '/api/auth/logout');
    const init = fetchMock.mock.calls[0][1];
    expect(init?.body).toBeUndefined();
    expect(init?.headers).toEqual({});
    expect(init?.credentials).toBe('include');
  });

  it('leaves multipart bodies to the browser', async () => {
    const fetchMock = stubFetch(new Response('{}', { status: 201 }));
    const form = new FormData();
    form.append('title', 'X-ray');
    await apiRequest('POST', '/api/medical-records', form);
    const init = fetchMock.mock.calls[0][1];
    expect(init?.body).toBe(form);
    expect(init?.headers).toEqual({});
  });

  it('raises "<status>: <body text>" on a non-OK answer', async () => {
    stubFetch(
      new Response('{"message":"Email already registered"}', { status: 409, statusText: 'Conflict' }),
    );
    const error = await apiRequest('POST', '/api/auth/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe('409: {"message":"Email already registered"}');
    expect(errorStatus(error)).toBe(409);
  });

  it('raises "<status>: <status text>" when the body is empty', async () => {
    stubFetch(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('503: Service Unavailable');
  });

  it('parses JSON answers and reads an empty answer as null', async () => {
    stubFetch(new Response('{"user":{"id":"1"}}', { status: 200 }));
    await expect(apiJson('GET', '/api/auth/me')).resolves.toEqual({ user: { id: '1' } });
    stubFetch(new Response('', { status: 200 }));
    await expect(apiJson('DELETE', '/api/x')).resolves.toBeNull();
  });
});

describe('errorMessage', () => {
  it("takes the server's {message}", () => {
    const error = new ApiError(400, 'Bad Request', '{"message":"Invalid MRN"}');
    expect(errorMessage(error, 'fallback')).toBe('Invalid MRN');
  });

  it('reads a plain Error in the "<status>: <body>" form too', () => {
    expect(errorMessage(new Error('404: {"message":"Patient not found"}'), 'fallback')).toBe(
      'Patient not found',
    );
    expect(errorStatus(new Error('404: Not Found'))).toBe(404);
  });

  it('falls back when the body is not JSON or has no message', () => {
    expect(errorMessage(new ApiError(502, 'Bad Gateway', '<html>'), 'Try again')).toBe('Try again');
    expect(errorMessage(new ApiError(400, 'Bad Request', '{"error":"x"}'), 'Try again')).toBe('Try again');
    expect(errorMessage(new TypeError('Failed to fetch'), 'Try again')).toBe('Try again');
    expect(errorMessage('not an error', 'Try again')).toBe('Try again');
    expect(errorStatus(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});
