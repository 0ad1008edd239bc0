import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, uploadWithProgress, type UploadProgress } from './request';

/** Just enough of XMLHttpRequest to drive uploadWithProgress in Node. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  withCredentials = false;
  status = 0;
  statusText = '';
  responseText = '';
  sent: unknown;
  upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: unknown) {
    this.sent = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, statusText: string, body: string) {
    this.status = status;
    this.statusText = statusText;
    this.responseText = body;
    this.onload?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadWithProgress', () => {
  it('posts the form with cookies, reports progress and resolves to the JSON answer', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const seen: UploadProgress[] = [];
    const form = new FormData();
    const done = uploadWithProgress('/api/medical-records', form, (p) => seen.push(p));
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/medical-records');
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.sent).toBe(form);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 80, total: 0 });
    xhr.answer(201, 'Created', '{"id":"r1"}');
    await expect(done).resolves.toEqual({ id: 'r1' });
    expect(seen).toEqual([
      { loaded: 50, total: 200, percent: 25 },
      { loaded: 80, total: 0, percent: 0 },
    ]);
  });

  it('rejects a non-OK answer as "<status>: <body>", like apiRequest', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const done = uploadWithProgress('/api/medical-records', new FormData());
    FakeXhr.last.answer(413, 'Payload Too Large', '{"message":"File is larger than 25 MB."}');
    const error = await done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toBe('413: {"message":"File is larger than 25 MB."}');
  });

  it('rejects with an AbortError when the signal aborts', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    const done = uploadWithProgress('/api/medical-records', new FormData(), undefined, {
      signal: controller.signal,
    });
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  });
});
