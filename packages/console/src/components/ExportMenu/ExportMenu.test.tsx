// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../Toast/ToastProvider.tsx';
import { renderWithI18n } from '../testing/render.tsx';
import { exportTimeoutMs } from './download.ts';
import { ExportMenu } from './ExportMenu.tsx';

type Init = RequestInit & { timeoutMs?: number };
const request = vi.fn<(path: string, init?: Init) => Promise<Response>>();
vi.mock('../../api/client.ts', () => ({ request: (path: string, init?: Init) => request(path, init) }));

function renderMenu(tenantPath = '/') {
  return renderWithI18n(
    <MemoryRouter initialEntries={[tenantPath]}>
      <ToastProvider>
        <Routes>
          {['/', '/:tenantId'].map((path) => (
            <Route
              key={path}
              path={path}
              element={
                <ExportMenu
                  apiPath="/users/export"
                  filters={{ search: 'ann', isSuspended: false, roleId: undefined }}
                  fileName="users"
                />
              }
            />
          ))}
        </Routes>
      </ToastProvider>
    </MemoryRouter>,
  );
}

describe('ExportMenu', () => {
  const clicked: string[] = [];
  beforeEach(() => {
    clicked.length = 0;
    URL.createObjectURL = vi.fn(() => 'blob:export');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    request.mockReset();
  });

  it('downloads the filtered list as CSV with the tenant API path and a dated file name', async () => {
    request.mockResolvedValue(new Response('id,username\n1,ann\n'));
    renderMenu('/acme');
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Export as CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(request.mock.calls[0]?.[0]).toBe('/m/acme/api/users/export?search=ann&isSuspended=false&format=csv');
    expect(new Headers(request.mock.calls[0]?.[1]?.headers).get('Accept')).toBe('text/csv');
    expect(request.mock.calls[0]?.[1]?.timeoutMs, 'a long export is not cut off after 20 s').toBe(exportTimeoutMs);
    expect(clicked[0]).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(URL.createObjectURL).toHaveBeenCalledWith(expect.any(Blob));
  });

  it('shows the server message when the export fails and downloads nothing', async () => {
    request.mockRejectedValue(new Error('Search field `x` is not valid.'));
    renderMenu();
    fireEvent.click(screen.getByRole('button', { name: 'Export' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Export as JSON' }));
    expect(await screen.findByText('Search field `x` is not valid.')).toBeTruthy();
    expect(request.mock.calls[0]?.[0]).toBe('/api/users/export?search=ann&isSuspended=false&format=json');
    expect(clicked).toEqual([]);
  });
});
