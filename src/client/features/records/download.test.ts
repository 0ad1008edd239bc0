import { describe, expect, it } from 'vitest';
import { recordDownload } from './download';

describe('record list downloads', () => {
  it('downloads the last segment of fileUrl under the file name, else "<title>.pdf"', () => {
    expect(recordDownload({ fileUrl: '/api/download/abc_DEF-123', fileName: 'x.png', title: 'T' })).toEqual({
      url: '/api/download/abc_DEF-123',
      fileName: 'x.png',
    });
    expect(recordDownload({ fileUrl: '/api/download/k', fileName: null, title: 'Scan' })?.fileName).toBe(
      'Scan.pdf',
    );
    expect(recordDownload({ fileUrl: null, fileName: null, title: 'Scan' })).toBeNull();
  });
});
