// @vitest-environment happy-dom

import { EditorView } from '@codemirror/view';
import {
  clientCredentialsContextSample,
  type JwtCustomizer,
  type JwtCustomizerPatch,
  type JwtCustomizerResponse,
  type JwtCustomizerTest,
  type JwtCustomizerTestResult,
} from '@gatehouse/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { renderPage } from '../../../components/testing/render-page.tsx';
import strings from '../../../i18n/locales/en/customize_jwt.json';
import { JwtEditorPage } from './JwtEditorPage.tsx';

// What the editor sends is under test, not the API (the server tests cover it): calls are recorded here.
const state: {
  saved?: JwtCustomizerResponse;
  puts: JwtCustomizer[];
  patches: JwtCustomizerPatch[];
  tests: JwtCustomizerTest[];
  testResult: JwtCustomizerTestResult;
  testFailure?: ApiError;
} = { puts: [], patches: [], tests: [], testResult: { payload: {}, claims: {}, droppedClaims: [] } };

const stored = (body: JwtCustomizerPatch): JwtCustomizerResponse => ({
  script: body.script ?? '',
  environmentVariables: Object.fromEntries(
    Object.keys(body.environmentVariables ?? {}).map((key) => [key, '********']),
  ),
  tokenSample: body.tokenSample,
  contextSample: body.contextSample,
  blockIssuanceOnError: body.blockIssuanceOnError ?? true,
});

vi.mock('../../../api/jwt-customizer.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../api/jwt-customizer.ts')>()),
  useJwtCustomizer: () => ({ isPending: false, isError: false, data: state.saved, refetch: async () => undefined }),
  useSaveJwtCustomizer: () => ({
    mutateAsync: async (body: JwtCustomizer) => {
      state.puts.push(body);
      state.saved = stored(body);
      return state.saved;
    },
  }),
  useUpdateJwtCustomizer: () => ({
    mutateAsync: async (body: JwtCustomizerPatch) => {
      state.patches.push(body);
      state.saved = stored(body);
      return state.saved;
    },
  }),
  useDeleteJwtCustomizer: () => ({ mutateAsync: async () => undefined }),
  useTestJwtCustomizer: () => ({
    mutateAsync: async (test: JwtCustomizerTest) => {
      state.tests.push(test);
      if (state.testFailure) throw state.testFailure;
      return state.testResult;
    },
  }),
}));

beforeEach(() => {
  state.saved = undefined;
  state.puts = [];
  state.patches = [];
  state.tests = [];
  state.testFailure = undefined;
  state.testResult = { payload: {}, claims: {}, droppedClaims: [] };
});

function open(path: string) {
  const user = userEvent.setup();
  const view = renderPage(<JwtEditorPage />, {
    path,
    route: '/customize-jwt/:tokenType/:action',
    namespaces: { customize_jwt: strings },
  });
  return { user, ...view };
}

/** Replaces a CodeMirror field's whole text, as typing would. */
async function setCode(name: RegExp, text: string) {
  const editor = await screen.findByRole('textbox', { name });
  const view = EditorView.findFromDOM(editor);
  if (!view) throw new Error('no editor view');
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

const script = `const getCustomJwtClaims = async ({ environmentVariables }) => ({ plan: environmentVariables.PLAN });`;

describe('the script editor', () => {
  it('creates a machine-to-machine script: test with a variable, then save and move to edit', async () => {
    const { user, router } = open('/customize-jwt/client-credentials/create');
    expect(await screen.findByRole('heading', { name: 'Machine-to-machine access token', level: 1 })).toBeTruthy();
    expect((await screen.findByRole('textbox', { name: /^Script/ })).textContent).toContain('getCustomJwtClaims');
    await setCode(/^Script/, script);
    await user.click(screen.getByRole('button', { name: 'Add variable' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'PLAN');
    await user.type(screen.getByLabelText('Value'), 'gold');

    state.testResult = {
      payload: { sub: 'm2m1', plan: 'gold' },
      claims: { plan: 'gold', sub: 'x' },
      droppedClaims: ['sub'],
    };
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    const result = await screen.findByTestId('test-result');
    expect(result.textContent).toContain('"plan": "gold"');
    expect(within(screen.getByTestId('dropped-claims')).getByText('sub')).toBeTruthy();
    expect(state.tests).toEqual([
      expect.objectContaining({
        tokenType: 'client-credentials',
        script,
        environmentVariables: { PLAN: 'gold' },
        context: clientCredentialsContextSample,
      }),
    ]);

    await user.click(screen.getByRole('button', { name: 'Create script' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/customize-jwt/client-credentials/edit'));
    expect(state.puts).toEqual([expect.objectContaining({ script, environmentVariables: { PLAN: 'gold' } })]);
    expect(await screen.findByRole('button', { name: 'Save changes' })).toBeTruthy();
    expect(await screen.findByText('Script “Machine-to-machine access token” saved.')).toBeTruthy();
  });

  it('shows the script’s own error when the test fails', async () => {
    const { user } = open('/customize-jwt/access-token/create');
    await screen.findByRole('textbox', { name: /^Script/ });
    state.testFailure = new ApiError(422, 'The script failed.', 'jwt_customizer.general', {
      name: 'ReferenceError',
      message: 'x is not defined',
    });
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    const panel = await screen.findByTestId('test-error');
    expect(within(panel).getByText('ReferenceError')).toBeTruthy();
    expect(within(panel).getByText('x is not defined')).toBeTruthy();
    expect(screen.queryByTestId('test-result')).toBeNull();
  });

  it('refuses a sample that is not JSON, with nothing sent by Test or Save', async () => {
    const { user } = open('/customize-jwt/access-token/create');
    await setCode(/^Sample token/, '{ "sub": ');
    await user.click(screen.getByRole('button', { name: 'Run test' }));
    expect((await screen.findByTestId('tokenSample-error')).textContent).toBe('Invalid JSON format.');
    await user.click(screen.getByRole('button', { name: 'Create script' }));
    expect(screen.getByTestId('tokenSample-error').textContent).toBe('Invalid JSON format.');
    await setCode(/^Sample context/, '[1, 2]');
    await user.click(screen.getByRole('button', { name: 'Create script' }));
    expect((await screen.findByTestId('contextSample-error')).textContent).toBe('Enter one JSON object, in braces.');
    expect(state.tests, 'no test sent').toEqual([]);
    expect(state.puts, 'nothing saved').toEqual([]);
  });

  it('refuses bad and duplicate variable names before sending', async () => {
    const { user } = open('/customize-jwt/client-credentials/create');
    await screen.findByRole('textbox', { name: /^Script/ });
    await user.click(screen.getByRole('button', { name: 'Add variable' }));
    await user.click(screen.getByRole('button', { name: 'Add variable' }));
    const [first, second] = screen.getAllByRole('textbox', { name: 'Name' });
    await user.type(first as HTMLElement, '1KEY');
    await user.type(second as HTMLElement, 'KEY');
    await user.click(screen.getByRole('button', { name: 'Create script' }));
    expect((await screen.findByTestId('environmentVariables.0.key-error')).textContent).toMatch(/^Use letters/);
    expect(state.puts).toEqual([]);
  });

  it('keeps saved variable values masked, sends them back unchanged, and asks again for a renamed one', async () => {
    state.saved = {
      script,
      environmentVariables: { PLAN: '********' },
      tokenSample: { sub: 'm2m1' },
      contextSample: { application: { id: 'm2m1' } },
      blockIssuanceOnError: true,
    };
    const { user } = open('/customize-jwt/client-credentials/edit');
    const value = await screen.findByLabelText('Value');
    expect((value as HTMLInputElement).value).toBe('********');
    expect(screen.getByRole('switch', { name: /^Block token issuance/ })).toHaveProperty('checked', true);

    await user.click(screen.getByRole('switch', { name: /^Block token issuance/ }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(state.patches).toHaveLength(1));
    expect(state.patches[0]).toEqual(
      expect.objectContaining({ environmentVariables: { PLAN: '********' }, blockIssuanceOnError: false }),
    );

    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'TIER');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByTestId('environmentVariables.0.value-error')).textContent).toMatch(
      /^Enter the value again/,
    );
    expect(state.patches).toHaveLength(1);
  });
});
