import { describe, expect, it } from 'vitest';
import { allowedExtensions, checkFiles, formatFileSize, uploadSizeCapBytes } from './file-rules.ts';

describe('formatFileSize (spec §9: Bytes to YB)', () => {
  it.each([
    [0, '0 Bytes'],
    [1023, '1,023 Bytes'],
    [1024, '1 KB'],
    [500 * 1024, '500 KB'],
    [1.5 * 1024 * 1024, '1.5 MB'],
    [20 * 1024 ** 2, '20 MB'],
    [1024 ** 8, '1 YB'],
    [2 * 1024 ** 9, '2,048 YB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatFileSize(bytes, 'en')).toBe(text);
  });

  it('formats the number for the language', () => {
    expect(formatFileSize(1.5 * 1024, 'de')).toBe('1,5 KB');
  });
});

describe('checkFiles', () => {
  const rules = { maxBytes: 1024, mimeTypes: ['image/png', 'image/x-icon', 'image/vnd.microsoft.icon'] };
  const file = (size: number, type = 'image/png') => new File([new Uint8Array(size)], 'f', { type });

  it('accepts one allowed file within the limit', () => {
    expect(checkFiles([file(1024)], rules)).toBeUndefined();
  });

  it('wants exactly one file', () => {
    expect(checkFiles([], rules)).toEqual({ key: 'error_file_count' });
    expect(checkFiles([file(1), file(1)], rules)).toEqual({ key: 'error_file_count' });
  });

  it('names each allowed extension once', () => {
    expect(checkFiles([file(1, 'image/gif')], rules)).toEqual({ key: 'error_file_type', extensions: ['png', 'ico'] });
    expect(allowedExtensions(['image/svg+xml', 'application/zip'])).toEqual(['svg', 'zip']);
  });

  it('applies the smaller of the given limit and the global cap', () => {
    expect(checkFiles([file(1025)], rules)).toEqual({ key: 'error_file_size', limitBytes: 1024 });
    const huge = { ...rules, maxBytes: Number.POSITIVE_INFINITY };
    const over = { size: uploadSizeCapBytes + 1, type: 'image/png' } as File;
    expect(checkFiles([over], huge)).toEqual({ key: 'error_file_size', limitBytes: uploadSizeCapBytes });
  });
});
