import { hookEvents } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationInvitations, organizations, users } from '../src/db/tables.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import {
  auditEntries,
  expectGuarded,
  expectInvalid,
  otherTenant,
  ownTenant,
  queuedEvents,
} from './support/scenarios.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 60 * 60 * 1000;
let counter = 0;
const newUser = (email: string | null, name = `invitee${++counter}`) =>
  ownTenant(t).insert(users, { id: `iu${String(counter).padStart(5, '0')}`, username: name, primaryEmail: email });
const newOrganization = async (name: string) =>
  String((await t.call('/api/organizations', { method: 'POST', body: { name } })).json.id);
const newRole = async (name: string, type = 'User') =>
  String((await t.call('/api/organization-roles', { method: 'POST', body: { name, type } })).json.id);
const invite = (body: Record<string, unknown>) => t.call('/api/organization-invitations', { method: 'POST', body });
const setStatus = (id: string, body: Record<string, unknown>) =>
  t.call(`/api/organization-invitations/${id}/status`, { method: 'PUT', body });
/** Moves an invitation's expiry into the past, as time passing would. */
const expire = (id: string) =>
  ownTenant(t).update(organizationInvitations, eq(organizationInvitations.id, id), {
    expiresAt: new Date(Date.now() - 1000),
  });
const messages = async (invitationId: string) =>
  (await queuedEvents(t, 'OrganizationInvitation.MessageRequested')).filter((m) => m.invitationId === invitationId);

describe('creating invitations', () => {
  it('creates a pending invitation with roles and queues its email only when asked', async () => {
    const org = await newOrganization('inv-create');
    const member = await newRole('inv-member');
    const inviter = await newUser('boss@example.com');
    const expiresAt = Date.now() + 24 * HOUR;
    const created = await invite({
      organizationId: org,
      invitee: 'New.Person@Example.com',
      inviterId: inviter.id,
      organizationRoleIds: [member],
      expiresAt,
      messagePayload: { link: 'https://app.example.com/join?code=1', locale: 'de' },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      tenantId: 'default',
      organizationId: org,
      invitee: 'New.Person@Example.com',
      inviterId: inviter.id,
      acceptedUserId: null,
      status: 'Pending',
      expiresAt,
      organizationRoles: [{ id: member, name: 'inv-member' }],
    });
    const id = String(created.json.id);
    expect((await t.call(`/api/organization-invitations/${id}`)).json).toEqual(created.json);
    expect(await messages(id), 'the email is queued with the invitation').toEqual([
      {
        invitationId: id,
        organizationId: org,
        invitee: 'New.Person@Example.com',
        expiresAt,
        messagePayload: { link: 'https://app.example.com/join?code=1', locale: 'de' },
      },
    ]);
    expect(hookEvents, 'no webhook can subscribe to the internal email event').not.toContain(
      'OrganizationInvitation.MessageRequested',
    );

    const silent = await invite({ organizationId: org, invitee: 'quiet@example.com', expiresAt });
    expect(silent.status).toBe(201);
    expect(silent.json).toMatchObject({ inviterId: null, organizationRoles: [] });
    expect(await messages(String(silent.json.id)), 'no messagePayload, no email').toEqual([]);
    const explicit = await invite({
      organizationId: org,
      invitee: 'quiet2@example.com',
      expiresAt,
      messagePayload: false,
    });
    expect(await messages(String(explicit.json.id))).toEqual([]);

    const [entry] = await auditEntries(t, id);
    expect(entry).toMatchObject({
      key: 'Admin.OrganizationInvitation.Created',
      payload: { before: null, after: { id, status: 'Pending', invitee: 'New.Person@Example.com' } },
    });
    expect(entry?.payload.after).not.toHaveProperty('updatedAt');
  });

  it('rejects malformed invitations with the failing field and saves nothing', async () => {
    const org = await newOrganization('inv-invalid');
    const later = Date.now() + HOUR;
    const cases: [Record<string, unknown>, string][] = [
      [{ invitee: 'a@b.co', expiresAt: later }, 'organizationId'],
      [{ organizationId: org, invitee: 'not-an-email', expiresAt: later }, 'invitee'],
      [{ organizationId: org, invitee: 'a b@c.de', expiresAt: later }, 'invitee'],
      [{ organizationId: org, expiresAt: later }, 'invitee'],
      [{ organizationId: org, invitee: 'a@b.co' }, 'expiresAt'],
      [{ organizationId: org, invitee: 'a@b.co', expiresAt: Date.now() - 1000 }, 'expiresAt'],
      [{ organizationId: org, invitee: 'a@b.co', expiresAt: Date.now() + 400 * 24 * HOUR }, 'expiresAt'],
      [{ organizationId: org, invitee: 'a@b.co', expiresAt: 'tomorrow' }, 'expiresAt'],
      [
        { organizationId: org, invitee: 'a@b.co', expiresAt: later, organizationRoleIds: ['r', 'r'] },
        'organizationRoleIds',
      ],
      [
        { organizationId: org, invitee: 'a@b.co', expiresAt: later, messagePayload: { link: 'javascript:x' } },
        'messagePayload.link',
      ],
      [{ organizationId: org, invitee: 'a@b.co', expiresAt: later, messagePayload: { n: 1 } }, 'messagePayload'],
    ];
    for (const [body, path] of cases) expectInvalid(await invite(body), path, JSON.stringify(body).slice(0, 90));
    expect((await t.call(`/api/organization-invitations?organizationId=${org}`)).json).toEqual([]);
  });

  it('refuses unknown references, machine roles, a second pending invitation and existing members', async () => {
    const org = await newOrganization('inv-refusals');
    const later = Date.now() + HOUR;
    const foreign = await otherTenant(t).insert(organizations, { id: 'foreign-iorg', name: 'foreign' });
    for (const [body, ids] of [
      [{ organizationId: 'no-such-org', invitee: 'x@example.com', expiresAt: later }, ['no-such-org']],
      [{ organizationId: foreign.id, invitee: 'x@example.com', expiresAt: later }, [foreign.id]],
      [{ organizationId: org, invitee: 'x@example.com', expiresAt: later, inviterId: 'nobody' }, ['nobody']],
      [
        { organizationId: org, invitee: 'x@example.com', expiresAt: later, organizationRoleIds: ['no-role'] },
        ['no-role'],
      ],
    ] as const) {
      const response = await invite(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.json).toMatchObject({ code: 'entity.relation_foreign_key_not_found', data: { ids } });
    }
    const machine = await newRole('inv-machine', 'MachineToMachine');
    const wrongType = await invite({
      organizationId: org,
      invitee: 'x@example.com',
      expiresAt: later,
      organizationRoleIds: [machine],
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.json).toMatchObject({ code: 'organization_role.invalid_type', data: { ids: [machine] } });

    expect((await invite({ organizationId: org, invitee: 'twice@example.com', expiresAt: later })).status).toBe(201);
    const twice = await invite({ organizationId: org, invitee: 'TWICE@example.com', expiresAt: later });
    expect(twice.status, 'one pending invitation per person, whatever the case').toBe(422);
    expect(twice.json).toMatchObject({
      code: 'organization_invitation.pending_exists',
      message: 'This person already has a pending invitation to this organization.',
    });
    const elsewhere = await invite({
      organizationId: await newOrganization('inv-elsewhere'),
      invitee: 'twice@example.com',
      expiresAt: later,
    });
    expect(elsewhere.status, 'another organization may invite the same person').toBe(201);

    const member = await newUser('already@example.com');
    await t.call(`/api/organizations/${org}/users`, { method: 'POST', body: { userIds: [member.id] } });
    const already = await invite({ organizationId: org, invitee: 'Already@Example.com', expiresAt: later });
    expect(already.status).toBe(422);
    expect(already.json).toMatchObject({ code: 'organization_invitation.already_member', data: { ids: [member.id] } });
    expect((await t.call(`/api/organization-invitations?organizationId=${org}`)).headers.get('Total-Number')).toBe('1');
  });
});

describe('invitation status', () => {
  it('accepting makes the invitee a member with the invitation roles, in one write', async () => {
    const org = await newOrganization('inv-accept');
    const editor = await newRole('acc-editor');
    const viewer = await newRole('acc-viewer');
    const user = await newUser('joiner@example.com');
    const id = String(
      (
        await invite({
          organizationId: org,
          invitee: 'JOINER@example.com',
          expiresAt: Date.now() + HOUR,
          organizationRoleIds: [editor, viewer],
        })
      ).json.id,
    );
    const accepted = await setStatus(id, { status: 'Accepted', acceptedUserId: user.id });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ id, status: 'Accepted', acceptedUserId: user.id });
    expect(accepted.json.updatedAt).toBeGreaterThanOrEqual(accepted.json.createdAt);
    const members = (await t.call(`/api/organizations/${org}/users`)).json;
    expect(members).toEqual([
      expect.objectContaining({
        id: user.id,
        organizationRoles: [
          { id: editor, name: 'acc-editor' },
          { id: viewer, name: 'acc-viewer' },
        ],
      }),
    ]);
    const events = (await queuedEvents(t, 'Organization.Membership.Updated')).filter((e) => e.organizationId === org);
    expect(events).toEqual([{ organizationId: org, addedUserIds: [user.id], removedUserIds: [] }]);
    const [entry] = await auditEntries(t, id);
    expect(entry?.key).toBe('Admin.OrganizationInvitation.Updated');
    expect(entry?.payload.changes).toEqual([
      { field: 'acceptedUserId', before: null, after: user.id },
      { field: 'status', before: 'Pending', after: 'Accepted' },
    ]);

    for (const body of [{ status: 'Accepted', acceptedUserId: user.id }, { status: 'Revoked' }]) {
      const again = await setStatus(id, body);
      expect(again.status, `no way out of Accepted: ${body.status}`).toBe(422);
      expect(again.json).toMatchObject({
        code: 'organization_invitation.invalid_status',
        message: 'Invalid invitation status: the invitation is no longer pending.',
        data: { status: 'Accepted' },
      });
    }
  });

  it('accepting keeps an existing membership and adds only the missing roles', async () => {
    const org = await newOrganization('inv-member-already');
    const kept = await newRole('kept-role');
    const extra = await newRole('extra-role');
    const user = await newUser('insider@example.com');
    const id = String(
      (
        await invite({
          organizationId: org,
          invitee: 'insider@example.com',
          expiresAt: Date.now() + HOUR,
          organizationRoleIds: [kept, extra],
        })
      ).json.id,
    );
    // The person joined another way after being invited.
    await t.call(`/api/organizations/${org}/users`, { method: 'POST', body: { userIds: [user.id] } });
    await t.call(`/api/organizations/${org}/users/${user.id}/roles`, {
      method: 'POST',
      body: { organizationRoleIds: [kept] },
    });
    expect((await setStatus(id, { status: 'Accepted', acceptedUserId: user.id })).status).toBe(200);
    const roles = (await t.call(`/api/organizations/${org}/users/${user.id}/roles`)).json;
    expect(roles.map((role: { id: string }) => role.id).sort()).toEqual([kept, extra].sort());
    const events = (await queuedEvents(t, 'Organization.Membership.Updated')).filter((e) => e.organizationId === org);
    expect(events, 'only the direct add changed the membership').toHaveLength(1);
  });

  it('refuses accepting for another email, an unknown user or without a user, and keeps the invitation pending', async () => {
    const org = await newOrganization('inv-accept-refusals');
    const stranger = await newUser('stranger@example.com');
    const noEmail = await newUser(null);
    const id = String(
      (await invite({ organizationId: org, invitee: 'right@example.com', expiresAt: Date.now() + HOUR })).json.id,
    );
    for (const userId of [stranger.id, noEmail.id]) {
      const mismatch = await setStatus(id, { status: 'Accepted', acceptedUserId: userId });
      expect(mismatch.status, userId).toBe(422);
      expect(mismatch.json).toMatchObject({
        code: 'organization_invitation.email_mismatch',
        message: 'The invitation was sent to a different email address.',
      });
    }
    const unknown = await setStatus(id, { status: 'Accepted', acceptedUserId: 'nobody' });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toMatchObject({ code: 'entity.relation_foreign_key_not_found', data: { ids: ['nobody'] } });
    for (const [body, path] of [
      [{ status: 'Accepted' }, 'acceptedUserId'],
      [{ status: 'Revoked', acceptedUserId: stranger.id }, 'acceptedUserId'],
      [{ status: 'Pending' }, 'status'],
      [{ status: 'Expired' }, 'status'],
      [{}, 'status'],
    ] as const) {
      expectInvalid(await setStatus(id, body), path, JSON.stringify(body));
    }
    expect((await t.call(`/api/organization-invitations/${id}`)).json.status).toBe('Pending');
    expect((await t.call(`/api/organizations/${org}/users`)).json).toEqual([]);
  });

  it('revoking ends a pending invitation for good', async () => {
    const org = await newOrganization('inv-revoke');
    const user = await newUser('revoked@example.com');
    const id = String(
      (await invite({ organizationId: org, invitee: 'revoked@example.com', expiresAt: Date.now() + HOUR })).json.id,
    );
    const revoked = await setStatus(id, { status: 'Revoked' });
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ status: 'Revoked', acceptedUserId: null });
    const accept = await setStatus(id, { status: 'Accepted', acceptedUserId: user.id });
    expect(accept.status).toBe(422);
    expect(accept.json).toMatchObject({ code: 'organization_invitation.invalid_status', data: { status: 'Revoked' } });
    expect((await t.call(`/api/organizations/${org}/users`)).json, 'a revoked invitation adds nobody').toEqual([]);
    const resend = await t.call(`/api/organization-invitations/${id}/message`, { method: 'POST', body: {} });
    expect(resend.json.code).toBe('organization_invitation.invalid_status');
    const fresh = await invite({ organizationId: org, invitee: 'revoked@example.com', expiresAt: Date.now() + HOUR });
    expect(fresh.status, 'a revoked invitation does not block a new one').toBe(201);
  });

  it('an invitation past its expiry reads as Expired and can be neither accepted nor revoked', async () => {
    const org = await newOrganization('inv-expired');
    const user = await newUser('late@example.com');
    const id = String(
      (await invite({ organizationId: org, invitee: 'late@example.com', expiresAt: Date.now() + HOUR })).json.id,
    );
    await expire(id);
    expect((await t.call(`/api/organization-invitations/${id}`)).json.status).toBe('Expired');
    for (const body of [{ status: 'Accepted', acceptedUserId: user.id }, { status: 'Revoked' }]) {
      const response = await setStatus(id, body);
      expect(response.status, body.status).toBe(422);
      expect(response.json).toMatchObject({
        code: 'organization_invitation.expired',
        message: 'The invitation has expired.',
        data: { status: 'Expired' },
      });
    }
    const resend = await t.call(`/api/organization-invitations/${id}/message`, { method: 'POST', body: {} });
    expect(resend.json.code).toBe('organization_invitation.expired');
    expect((await t.call(`/api/organizations/${org}/users`)).json).toEqual([]);

    const renewed = await invite({ organizationId: org, invitee: 'late@example.com', expiresAt: Date.now() + HOUR });
    expect(renewed.status, 'an expired invitation does not block a new one').toBe(201);
    expect((await t.call(`/api/organization-invitations/${id}`)).json.status, 'the old one stays Expired').toBe(
      'Expired',
    );
    expect((await setStatus(String(renewed.json.id), { status: 'Accepted', acceptedUserId: user.id })).status).toBe(
      200,
    );
  });
});

describe('listing, resending and deleting invitations', () => {
  it('lists newest first with filters by organization, inviter, invitee and status', async () => {
    const org = await newOrganization('inv-list');
    const otherOrg = await newOrganization('inv-list-other');
    const inviter = await newUser('lister@example.com');
    const later = Date.now() + HOUR;
    const pending = String(
      (await invite({ organizationId: org, invitee: 'p@example.com', expiresAt: later, inviterId: inviter.id })).json
        .id,
    );
    const revoked = String((await invite({ organizationId: org, invitee: 'r@example.com', expiresAt: later })).json.id);
    const expired = String((await invite({ organizationId: org, invitee: 'e@example.com', expiresAt: later })).json.id);
    const elsewhere = String(
      (await invite({ organizationId: otherOrg, invitee: 'p@example.com', expiresAt: later })).json.id,
    );
    await setStatus(revoked, { status: 'Revoked' });
    await expire(expired);
    const list = async (query: string) =>
      ((await t.call(`/api/organization-invitations?${query}`)).json as { id: string }[]).map((inv) => inv.id);

    expect(await list(`organizationId=${org}`)).toEqual([expired, revoked, pending]);
    expect(await list(`organizationId=${org}&status=Pending`)).toEqual([pending]);
    expect(await list(`organizationId=${org}&status=Expired`)).toEqual([expired]);
    expect(await list(`organizationId=${org}&status=Revoked`)).toEqual([revoked]);
    expect(await list(`organizationId=${org}&status=Accepted`)).toEqual([]);
    expect(await list(`inviterId=${inviter.id}`)).toEqual([pending]);
    expect((await list('invitee=P@Example.com')).sort(), 'exact email, any case').toEqual([pending, elsewhere].sort());
    const page = await t.call(`/api/organization-invitations?organizationId=${org}&page=2&page_size=2`);
    expect(page.json.map((inv: { id: string }) => inv.id)).toEqual([pending]);
    expect(page.headers.get('Total-Number')).toBe('3');
    expectInvalid(await t.call('/api/organization-invitations?status=Open'), 'status');
  });

  it('resends the email of a pending invitation and deletes invitations in any status', async () => {
    const org = await newOrganization('inv-resend');
    const id = String(
      (await invite({ organizationId: org, invitee: 'again@example.com', expiresAt: Date.now() + HOUR })).json.id,
    );
    const resent = await t.call(`/api/organization-invitations/${id}/message`, {
      method: 'POST',
      body: { link: 'https://app.example.com/accept' },
    });
    expect(resent.status).toBe(204);
    expect(await messages(id)).toEqual([
      expect.objectContaining({ messagePayload: { link: 'https://app.example.com/accept' } }),
    ]);
    expect((await auditEntries(t, id))[0]?.key).toBe('Admin.OrganizationInvitation.MessageRequested');
    expectInvalid(
      await t.call(`/api/organization-invitations/${id}/message`, { method: 'POST', body: { link: 'ftp://x' } }),
      'link',
    );

    await setStatus(id, { status: 'Revoked' });
    expect((await t.call(`/api/organization-invitations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.call(`/api/organization-invitations/${id}`)).status).toBe(404);
    expect((await t.call(`/api/organization-invitations/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await auditEntries(t, id))[0]).toMatchObject({
      key: 'Admin.OrganizationInvitation.Deleted',
      payload: { before: { id, status: 'Revoked' }, after: null },
    });

    const gone = String(
      (await invite({ organizationId: org, invitee: 'cascade@example.com', expiresAt: Date.now() + HOUR })).json.id,
    );
    await t.call(`/api/organizations/${org}`, { method: 'DELETE' });
    expect(
      (await t.call(`/api/organization-invitations/${gone}`)).status,
      'deleting the organization deletes its invitations',
    ).toBe(404);
  });

  it("answer 404 for another tenant's invitations and require scope all", async () => {
    const foreignOrg = await otherTenant(t).insert(organizations, { id: 'foreign-invorg', name: 'foreign' });
    await otherTenant(t).insert(organizationInvitations, {
      id: 'foreign-invitation',
      organizationId: foreignOrg.id,
      invitee: 'x@example.com',
      expiresAt: new Date(Date.now() + HOUR),
    });
    for (const [method, path, body] of [
      ['GET', '/api/organization-invitations/foreign-invitation', undefined],
      ['DELETE', '/api/organization-invitations/foreign-invitation', undefined],
      ['PUT', '/api/organization-invitations/foreign-invitation/status', { status: 'Revoked' }],
      ['POST', '/api/organization-invitations/foreign-invitation/message', {}],
    ] as const) {
      const response = await t.call(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(404);
      // DELETE is the reference's generic deletion: its miss is `entity.not_found` (issue 43).
      expect(response.json.code, `${method} ${path}`).toBe(
        method === 'DELETE' ? 'entity.not_found' : 'entity.not_exists_with_id',
      );
    }
    expect((await t.call('/api/organization-invitations?invitee=x@example.com')).json).toEqual([]);
    await expectGuarded(t, [
      { method: 'GET', path: '/api/organization-invitations' },
      { method: 'POST', path: '/api/organization-invitations', body: {} },
      { method: 'GET', path: '/api/organization-invitations/x' },
      { method: 'DELETE', path: '/api/organization-invitations/x' },
      { method: 'PUT', path: '/api/organization-invitations/x/status', body: { status: 'Revoked' } },
      { method: 'POST', path: '/api/organization-invitations/x/message', body: {} },
    ]);
  });
});
