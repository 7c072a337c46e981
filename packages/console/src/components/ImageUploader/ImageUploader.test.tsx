// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../testing/render.tsx';
import { profileImageMaxBytes, profileImageMimeTypes } from './file-rules.ts';
import { ImageUploader, type ImageUploaderProps } from './ImageUploader.tsx';

function png(name: string, bytes = 10) {
  return new File([new Uint8Array(bytes)], name, { type: 'image/png' });
}

function setup(props: Partial<ImageUploaderProps> = {}) {
  const onUploaded = vi.fn();
  const upload = vi.fn<ImageUploaderProps['upload']>(() => Promise.resolve({ url: 'https://cdn.example/x.png' }));
  renderWithI18n(
    <ImageUploader
      upload={upload}
      onUploaded={onUploaded}
      maxBytes={profileImageMaxBytes}
      mimeTypes={profileImageMimeTypes}
      {...props}
    />,
  );
  const drop = async (...files: File[]) => {
    await act(async () => {
      fireEvent.drop(screen.getByTestId('image-uploader-drop-zone'), { dataTransfer: { files } });
    });
  };
  return { upload, onUploaded, drop };
}

describe('ImageUploader', () => {
  it('rejects a drop of two files with error_file_count and uploads nothing', async () => {
    const { upload, drop } = setup();
    await drop(png('a.png'), png('b.png'));
    expect(screen.getByRole('alert').textContent).toBe('Only one file can be uploaded at a time.');
    expect(upload).not.toHaveBeenCalled();
  });

  it('rejects a file over the limit with error_file_size, showing the limit with its unit', async () => {
    const { upload, drop } = setup();
    await drop(png('big.png', profileImageMaxBytes + 1));
    expect(screen.getByRole('alert').textContent).toBe('The file is too large. The maximum size is 500 KB.');
    expect(upload).not.toHaveBeenCalled();
  });

  it('rejects another type with error_file_type, listing the allowed extensions', async () => {
    const { upload, drop } = setup();
    await drop(new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(screen.getByRole('alert').textContent).toBe('Unsupported file type. Allowed types: svg, png, jpeg, ico.');
    expect(upload).not.toHaveBeenCalled();
  });

  it('uploads one valid file and reports the URL', async () => {
    const { upload, onUploaded, drop } = setup();
    const file = png('logo.png');
    await drop(file);
    expect(upload).toHaveBeenCalledWith(file, expect.any(AbortSignal));
    expect(onUploaded).toHaveBeenCalledWith('https://cdn.example/x.png');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('goes idle → uploading → idle with error_upload when the upload fails', async () => {
    let fail: (error: Error) => void = () => {};
    const { drop, onUploaded } = setup({ upload: () => new Promise((_, reject) => (fail = reject)) });
    await drop(png('logo.png'));
    expect(screen.getByRole('status').textContent).toBe('Uploading…');
    await act(async () => fail(new Error('500')));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('The upload failed. Please try again.');
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('shows no error for a cancelled upload, and aborts its request', async () => {
    let signal: AbortSignal | undefined;
    const upload = (_file: File, given: AbortSignal) =>
      new Promise<{ url: string }>((_, reject) => {
        signal = given;
        given.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      });
    const { drop, onUploaded } = setup({ upload });
    await drop(png('logo.png'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(signal?.aborted).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Browse files' })).toBeTruthy();
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('caps any limit at the global 20 MB', () => {
    setup({ maxBytes: 100 * 1024 * 1024, mimeTypes: ['image/png'] });
    expect(screen.getByText('png, up to 20 MB')).toBeTruthy();
  });
});
