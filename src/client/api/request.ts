// The request helper of docs/spec.md#calls: every call sends the session cookie, JSON bodies carry a
// JSON content type, and any non-OK answer raises "<status>: <body text or status text>".

/** Raised for every non-OK answer; `message` keeps the spec's "<status>: <body>" form. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = await res.text().catch(() => '');
  throw new ApiError(res.status, res.statusText, text);
}

/** Sends one call; a FormData body goes as multipart, anything else as JSON. */
export async function apiRequest(
  method: HttpMethod,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<Response> {
  const init: RequestInit = { method, credentials: 'include', headers: {}, signal };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.headers = { 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  await throwIfNotOk(res);
  return res;
}

/** apiRequest, then the answer parsed as JSON (null for an empty answer). */
export async function apiJson<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const res = await apiRequest(method, path, body, signal);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** The HTTP status of an ApiError (or of any error whose message starts with "<status>: "). */
export function errorStatus(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  if (error instanceof Error) {
    const match = /^(\d{3}): /.exec(error.message);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * The server's `{message}` from an error raised by the helpers above, for toasts.
 * Falls back to `fallback` when the body is not JSON with a message (e.g. a network failure).
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const body = error instanceof ApiError ? error.body : error.message.replace(/^\d{3}: /, '');
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed) {
      const message = parsed.message;
      if (typeof message === 'string' && message.trim()) return message;
    }
  } catch {
    // Not JSON: fall through to the fallback.
  }
  return fallback;
}

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0 to 100, rounded down; 0 while the total is unknown. */
  percent: number;
}

export interface UploadOptions {
  method?: 'POST' | 'PUT';
  signal?: AbortSignal;
}

/**
 * Uploads a multipart form with progress reports (fetch cannot report upload progress).
 * Same conventions as apiRequest: cookies sent, non-OK raises ApiError; resolves to the parsed
 * JSON answer (null when empty). An abort rejects with a DOMException named "AbortError".
 */
export function uploadWithProgress<T = unknown>(
  path: string,
  formData: FormData,
  onProgress?: (progress: UploadProgress) => void,
  options: UploadOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', path);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      const total = event.lengthComputable ? event.total : 0;
      const percent = total ? Math.floor((event.loaded / total) * 100) : 0;
      onProgress?.({ loaded: event.loaded, total, percent });
    };
    xhr.onload = () => {
      const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(xhr.status, xhr.statusText, text));
        return;
      }
      try {
        resolve((text ? JSON.parse(text) : null) as T);
      } catch {
        reject(new ApiError(xhr.status, 'Invalid JSON answer', text));
      }
    };
    xhr.onerror = () => reject(new TypeError('Network error during upload'));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new DOMException('Upload aborted', 'AbortError'));
        return;
      }
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(formData);
  });
}
