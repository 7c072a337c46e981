import type { InternalOutboxEvent } from '@gatehouse/schemas';
import { asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { allOf } from '../db/conditions.ts';
import { organizationInvitations, organizations, outbox, users } from '../db/tables.ts';
import { type TenantDb, TenantDbs } from '../db/tenant-db.ts';
import { negotiateLanguage } from '../i18n/messages.ts';
import type { EmailMessage, SendResult } from './email.ts';
import { renderInvitation } from './email-templates.ts';
import { exponentialBackoff, type JobDefinition, JobRunner } from './job-runner.ts';
import type { MessageDelivery, MessageToSend } from './message-delivery.ts';
import { INVITATION_MESSAGE_EVENT } from './organization-invitations.ts';

/** One recorded try to send a message (kept in the outbox row's `payload.mail.attempts`). */
export type MailAttempt = {
  attempt: number;
  at: number;
  durationMs: number;
  messageId?: string;
  error?: string;
};

/**
 * The mail state of an outbox row, kept in its payload under `mail` (no table of its own).
 * `status` is final once the row is processed: `sent`, `failed` (attempts used up or permanent
 * error), `cancelled` (e.g. the invitation is no longer pending) or `not_sent` (SMTP unset).
 */
export type MailState = {
  status: 'pending' | 'sent' | 'failed' | 'cancelled' | 'not_sent';
  attempts: MailAttempt[];
  /** Database time (ms) before which no process tries it (retry backoff). */
  nextAttemptAt?: number;
  /** Database time (ms) until which the claiming process owns it. */
  lockedUntil?: number;
  reason?: string;
};

type OutboxRow = typeof outbox.$inferSelect;

/** What a message event renders to: an email (with what a connector template may use), or a reason not to send it. */
type Rendered = { email: EmailMessage; message: Omit<MessageToSend, 'builtIn' | 'to'> } | { cancel: string };
type Renderer = (tenant: TenantDb, row: OutboxRow) => Promise<Rendered>;

/** How one run ended: a final state without a send (cancelled, not sent), or a try to record. */
type MailResult =
  | { failed: false; final: MailState }
  | { failed: true; permanent: boolean; attempts: MailAttempt[]; error: string };

export type MailWorkerOptions = {
  db: Database;
  /** Through the tenant's email connector when it has one, else SMTP. */
  delivery: MessageDelivery;
  log?: Logger | undefined;
  intervalMs?: number;
  /** Delay before retry n (1-based). Default 30 s, 2 min, 8 min, 32 min. */
  backoffMs?: (retry: number) => number;
  /** Tries per message, the first included. */
  maxAttempts?: number;
  batchSize?: number;
  /** How long a claimed message stays reserved to one process; then another may take it over. */
  leaseMs?: number;
};

const renderers: Record<InternalOutboxEvent, Renderer> = {
  [INVITATION_MESSAGE_EVENT]: renderInvitationEvent,
};
const nowMs = sql`(extract(epoch from now()) * 1000)::bigint`;
const mailField = (field: string) => sql`coalesce((${outbox.payload}->'mail'->>${field})::bigint, 0)`;
const stateOf = (row: OutboxRow) => (row.payload.mail ?? { status: 'pending', attempts: [] }) as MailState;

/**
 * Sends the email events of the outbox (internal events, which the webhook worker leaves alone) on the job
 * runner. The outbox row is the queue entry and its mail state (`payload.mail`) the job's columns: the lease
 * (`lockedUntil`), the backoff (`nextAttemptAt`, both database time in ms) and every attempt; a final status marks
 * the row processed. A sent message is never sent again. A permanent SMTP refusal is not retried.
 */
export class MailWorker extends JobRunner<typeof outbox, MailResult> {
  constructor(options: MailWorkerOptions) {
    const { db, delivery, log } = options;
    super(mailDefinition(new TenantDbs(db), delivery, log, options.maxAttempts ?? 5), {
      db,
      log,
      intervalMs: options.intervalMs ?? 1000,
      leaseMs: options.leaseMs ?? 120_000,
      claimLimit: options.batchSize ?? 10,
      backoffMs: options.backoffMs ?? exponentialBackoff(30_000),
    });
  }
}

/** Claiming is the job runner's, across tenants; each message is then rendered and recorded as its tenant. */
function mailDefinition(
  tenants: TenantDbs,
  delivery: MessageDelivery,
  log: Logger | undefined,
  maxAttempts: number,
): JobDefinition<typeof outbox, MailResult> {
  return {
    name: 'mail worker',
    table: outbox,
    claimable: allOf(
      isNull(outbox.processedAt),
      inArray(outbox.event, Object.keys(renderers)),
      sql`${mailField('nextAttemptAt')} <= ${nowMs}`,
      sql`${mailField('lockedUntil')} < ${nowMs}`,
    ),
    orderBy: asc(outbox.id),
    claim: (leaseMs) => ({
      payload: sql`jsonb_set(${outbox.payload}, '{mail}', coalesce(${outbox.payload}->'mail', '{"status":"pending","attempts":[]}'::jsonb) || jsonb_build_object('lockedUntil', ${nowMs} + ${leaseMs}))`,
    }),
    attempt: (row) => stateOf(row).attempts.length + 1,
    maxAttempts: () => maxAttempts,
    run: async (row, { attempt }) => {
      const state = stateOf(row);
      const tenant = tenants.of(row.tenantId);
      const renderer = renderers[row.event as InternalOutboxEvent];
      let rendered: Rendered | undefined;
      let renderError: string | undefined;
      try {
        rendered = renderer ? await renderer(tenant, row) : { cancel: `no template for ${row.event}` };
      } catch (error) {
        // E.g. the database failing for a moment: an attempt that failed, retried like a send.
        renderError = `could not render: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (rendered && 'cancel' in rendered) {
        log?.info({ outboxId: row.id, event: row.event, reason: rendered.cancel }, 'email not sent');
        return { failed: false, final: { ...state, status: 'cancelled', reason: rendered.cancel } };
      }
      if (rendered && !(await delivery.senders(tenant)).email) {
        const reason = 'SMTP_URL is not set and the tenant has no email connector';
        log?.warn({ outboxId: row.id, event: row.event, to: rendered.email.to }, `email not sent: ${reason}`);
        return { failed: false, final: { ...state, status: 'not_sent', reason } };
      }
      const result: SendResult = rendered
        ? await delivery.sendEmail(tenant, { ...rendered.message, to: rendered.email.to, builtIn: rendered.email })
        : { sent: false, error: renderError ?? 'could not render', permanent: false, durationMs: 0 };
      const record: MailAttempt = {
        attempt,
        at: Date.now(),
        durationMs: result.durationMs,
        ...(result.sent ? { messageId: result.messageId } : { error: result.error }),
      };
      const attempts = [...state.attempts, record];
      if (result.sent) return { failed: false, final: { status: 'sent', attempts } };
      return { failed: true, permanent: result.permanent, attempts, error: result.error };
    },
    settle: async (row, result, retryInMs) => {
      const tenant = tenants.of(row.tenantId);
      if ('final' in result) return finish(tenant, row, result.final);
      const { attempts, error } = result;
      log?.warn(
        { outboxId: row.id, event: row.event, attempt: attempts.length, error },
        retryInMs === undefined ? 'email delivery failed' : 'email delivery failed; will retry',
      );
      if (retryInMs === undefined) return finish(tenant, row, { status: 'failed', attempts, reason: error });
      const next: MailState = { status: 'pending', attempts };
      await tenant.asTenant((db) =>
        db
          .update(outbox)
          .set({
            payload: sql`jsonb_set(${outbox.payload}, '{mail}', ${JSON.stringify(next)}::jsonb || jsonb_build_object('nextAttemptAt', ${nowMs} + ${retryInMs}))`,
          })
          .where(keyOf(row)),
      );
    },
  };
}

const keyOf = (row: OutboxRow) => allOf(eq(outbox.tenantId, row.tenantId), eq(outbox.id, row.id));

/** A final state: the lease and the backoff go, and the row is processed. */
async function finish(tenant: TenantDb, row: OutboxRow, state: MailState): Promise<void> {
  const { lockedUntil: _released, nextAttemptAt: _done, ...final } = state;
  await tenant.asTenant((db) =>
    db
      .update(outbox)
      .set({
        processedAt: sql`now()`,
        payload: sql`jsonb_set(${outbox.payload}, '{mail}', ${JSON.stringify(final)}::jsonb)`,
      })
      .where(keyOf(row)),
  );
}

type InvitationEventData = {
  invitationId: string;
  organizationId: string;
  invitee: string;
  expiresAt: number;
  messagePayload: Record<string, string>;
};

/**
 * The invitation email, rendered when it is sent: not at all unless the invitation is still
 * Pending; in `messagePayload.locale` (else English); the link is `messagePayload.link` with
 * `{invitationId}` replaced, or the link of the invitation's latest earlier message (a resend).
 */
async function renderInvitationEvent(tenant: TenantDb, row: OutboxRow): Promise<Rendered> {
  const data = row.payload.data as InvitationEventData;
  const invitation = await tenant.findOne(organizationInvitations, eq(organizationInvitations.id, data.invitationId));
  if (!invitation) return { cancel: 'the invitation was deleted' };
  if (invitation.status !== 'Pending' || invitation.expiresAt.getTime() <= Date.now()) {
    return { cancel: `the invitation is no longer pending (${invitation.status})` };
  }
  let link = data.messagePayload.link;
  if (!link) {
    const [earlier] = await tenant.findMany(outbox, {
      where: allOf(
        eq(outbox.event, INVITATION_MESSAGE_EVENT),
        lt(outbox.id, row.id),
        sql`${outbox.payload}->'data'->>'invitationId' = ${data.invitationId}`,
        sql`${outbox.payload}->'data'->'messagePayload'->>'link' is not null`,
      ),
      orderBy: [desc(outbox.id)],
      limit: 1,
    });
    link = (earlier?.payload.data as InvitationEventData | undefined)?.messagePayload.link;
  }
  if (!link) return { cancel: 'no acceptance link (messagePayload.link)' };
  link = link.replaceAll('{invitationId}', encodeURIComponent(invitation.id));
  const organization = await tenant.findOne(organizations, eq(organizations.id, invitation.organizationId));
  const inviter = invitation.inviterId ? await tenant.findOne(users, eq(users.id, invitation.inviterId)) : undefined;
  const language = negotiateLanguage(data.messagePayload.locale);
  const values = {
    organization: organization?.name ?? invitation.organizationId,
    inviter: inviter ? (inviter.name ?? inviter.username ?? inviter.primaryEmail ?? undefined) : undefined,
    link,
    expiresAt: invitation.expiresAt.getTime(),
  };
  const content = renderInvitation(language, values);
  return {
    email: { to: invitation.invitee, ...content },
    message: {
      usage: 'OrganizationInvitation',
      language,
      values: {
        organization: values.organization,
        inviter: values.inviter ?? '',
        link,
        expiresAt: invitation.expiresAt.toISOString(),
      },
    },
  };
}
