import { describe, expect, it } from 'vitest';
import { eventGroups } from './form/events.ts';
import { emptyHookForm, formToCreate, formToPatch, type HookForm, hookFormSchema, hookToForm } from './hook-form.ts';

const valid: HookForm = {
  ...emptyHookForm,
  name: '  CRM sync ',
  events: ['User.Created'],
  url: 'https://hooks.example.com/in',
};

/** The rule messages of each failing path (the resolver translates them; these are the schema's own). */
function failures(values: HookForm): Record<string, string> {
  const result = hookFormSchema.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('webhook form', () => {
  it('accepts a valid form and sends the trimmed name, the headers as an object and no empty rows', () => {
    const values: HookForm = {
      ...valid,
      headers: [
        { key: ' Authorization ', value: 'Bearer x' },
        { key: '', value: '' },
      ],
      retries: 0,
    };
    expect(failures(values)).toEqual({});
    expect(formToCreate(values)).toEqual({
      name: 'CRM sync',
      events: ['User.Created'],
      config: { url: 'https://hooks.example.com/in', headers: { Authorization: 'Bearer x' }, retries: 0 },
      enabled: true,
    });
    expect(formToPatch(values)).not.toHaveProperty('enabled');
  });

  it('refuses what the API refuses: no event, a non-http or credentialed URL, retries out of 0–3', () => {
    expect(Object.keys(failures({ ...valid, name: ' ', events: [], url: 'ftp://x.example' })).sort()).toEqual([
      'events',
      'name',
      'url',
    ]);
    expect(failures({ ...valid, url: 'https://user:pw@x.example/in' }).url).toContain('credentials');
    expect(failures({ ...valid, retries: 4 })).toHaveProperty('retries');
    expect(failures({ ...valid, retries: -1 })).toHaveProperty('retries');
    expect(failures({ ...valid, retries: null })).toHaveProperty('retries');
    expect(failures({ ...valid, retries: 3 })).toEqual({});
  });

  it('marks the header row and field that break a rule', () => {
    const rows = (headers: HookForm['headers']) => failures({ ...valid, headers });
    expect(rows([{ key: '', value: 'x' }])).toEqual({ 'headers.0.key': 'header_name_required' });
    expect(rows([{ key: 'Bad Name', value: 'x' }])).toEqual({ 'headers.0.key': 'header_name_invalid' });
    expect(rows([{ key: 'content-type', value: 'x' }])).toEqual({ 'headers.0.key': 'header_reserved' });
    expect(rows([{ key: 'X-A', value: 'a\nb' }])).toEqual({ 'headers.0.value': 'header_value_invalid' });
    expect(
      rows([
        { key: 'X-A', value: '1' },
        { key: 'x-a', value: '2' },
      ]),
    ).toEqual({ 'headers.1.key': 'header_duplicate' });
    const many = Array.from({ length: 21 }, (_, index) => ({ key: `X-${index}`, value: '1' }));
    expect(rows(many)).toEqual({ headers: 'headers_too_many' });
  });

  it('loads a saved hook with one empty header row to type into', () => {
    const form = hookToForm({
      tenantId: 'default',
      id: 'h1',
      name: 'A',
      events: ['PostSignIn'],
      config: { url: 'http://127.0.0.1/in', headers: {}, retries: 2 },
      signingKey: 'k',
      enabled: false,
      createdAt: 0,
    });
    expect(form).toMatchObject({ headers: [{ key: '', value: '' }], retries: 2, enabled: false });
  });

  it('groups every §9 event exactly once', async () => {
    const { hookEvents } = await import('@gatehouse/schemas');
    const grouped = eventGroups.flatMap((group) => group.events);
    expect([...grouped].sort()).toEqual([...hookEvents].sort());
  });
});
