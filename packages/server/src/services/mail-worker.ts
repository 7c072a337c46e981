import type { InternalOutboxEvent } from '@gatehouse/schemas';
import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { allOf } from '../db/conditions.ts';
import { organizationInvitations, organizations, outbox, users } from '../db/tables.ts';
import { negotiateLanguage } from '../i18n/messages.ts';
import type { EmailMessage, EmailService, SendResult } from './email.ts';
import { renderInvitation } from './email-templates.ts';
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

/** What a message event renders to: an email, or a reason not to send it at all. */
type Rendered = { email: EmailMessage } | { cancel: string };
type Renderer = (db: Database, row: OutboxRow) => Promise<Rendered>;

export type MailWorkerOptions = {
  db: Database;
  email: EmailService;
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

const defaultBackoff = (retry: number) => 30_000 * 4 ** (retry - 1);
const nowMs = sql`(extract(epoch from now()) * 1000)::bigint`;
const mailField = (field: string) => sql`coalesce((${outbox.payload}->'mail'->>${field})::bigint, 0)`;

/**
 * Sends the email events of the outbox (internal events, which the webhook worker leaves alone).
 * The outbox row is the queue entry: a run claims due unprocessed rows with
 * `FOR UPDATE SKIP LOCKED` and writes a lease into `payload.mail`, sends outside the
 * transaction, then records the attempt and either schedules a retry or marks the row
 * processed. Any number of processes can run it on one database; a sent message is never sent again.
 */
export class MailWorker {
  readonly #db: Database;
  readonly #email: EmailService;
  readonly #log: Logger | undefined;
  readonly #intervalMs: number;
  readonly #backoffMs: (retry: number) => number;
  readonly #maxAttempts: number;
  readonly #batchSize: number;
  readonly #leaseMs: number;
  readonly #renderers: Record<InternalOutboxEvent, Renderer> = {
    [INVITATION_MESSAGE_EVENT]: renderInvitationEvent,
  };
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = true;

  constructor(options: MailWorkerOptions) {
    this.#db = options.db;
    this.#email = options.email;
    this.#log = options.log;
    this.#intervalMs = options.intervalMs ?? 1000;
    this.#backoffMs = options.backoffMs ?? defaultBackoff;
    this.#maxAttempts = options.maxAttempts ?? 5;
    this.#batchSize = options.batchSize ?? 10;
    this.#leaseMs = options.leaseMs ?? 120_000;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#running?.catch(() => {});
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.runOnce().then(
        (attempted) => this.#schedule(attempted > 0 ? 0 : this.#intervalMs),
        (error: unknown) => {
          this.#log?.error({ err: error }, 'mail worker run failed');
          this.#schedule(this.#intervalMs);
        },
      );
    }, delay);
    this.#timer.unref();
  }

  /** Runs until nothing is due now (tests; retries must be due at once, i.e. zero backoff). */
  async drain(maxRuns = 100): Promise<void> {
    for (let run = 0; run < maxRuns; run++) {
      if ((await this.runOnce()) === 0) return;
    }
  }

  /** Claims one batch of due messages and handles them. Returns how many it claimed. */
  async runOnce(): Promise<number> {
    const events = Object.keys(this.#renderers);
    const claimed = await this.#db.transaction(async (tx) => {
      const due = await tx
        .select({ tenantId: outbox.tenantId, id: outbox.id })
        .from(outbox)
        .where(
          and(
            isNull(outbox.processedAt),
            inArray(outbox.event, events),
            sql`${mailField('nextAttemptAt')} <= ${nowMs}`,
            sql`${mailField('lockedUntil')} < ${nowMs}`,
          ),
        )
        .orderBy(asc(outbox.id))
        .limit(this.#batchSize)
        .for('update', { skipLocked: true });
      if (!due.length) return [];
      return tx
        .update(outbox)
        .set({
          payload: sql`jsonb_set(${outbox.payload}, '{mail}', coalesce(${outbox.payload}->'mail', '{"status":"pending","attempts":[]}'::jsonb) || jsonb_build_object('lockedUntil', ${nowMs} + ${this.#leaseMs}))`,
        })
        .where(
          allOf(
            isNull(outbox.processedAt),
            inArray(
              outbox.id,
              due.map((row) => row.id),
            ),
          ),
        )
        .returning();
    });
    await Promise.all(claimed.map((row) => this.#handle(row)));
    return claimed.length;
  }

  async #handle(row: OutboxRow): Promise<void> {
    const state = (row.payload.mail ?? { status: 'pending', attempts: [] }) as MailState;
    const renderer = this.#renderers[row.event as InternalOutboxEvent];
    let rendered: Rendered | undefined;
    let renderError: string | undefined;
    try {
      rendered = renderer ? await renderer(this.#db, row) : { cancel: `no template for ${row.event}` };
    } catch (error) {
      // E.g. the database failing for a moment: an attempt that failed, retried like a send.
      renderError = `could not render: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (rendered && 'cancel' in rendered) {
      this.#log?.info({ outboxId: row.id, event: row.event, reason: rendered.cancel }, 'email not sent');
      return this.#finish(row, { ...state, status: 'cancelled', reason: rendered.cancel });
    }
    if (rendered && !this.#email.configured) {
      this.#log?.warn(
        { outboxId: row.id, event: row.event, to: rendered.email.to },
        'email not sent: SMTP_URL is not set',
      );
      return this.#finish(row, { ...state, status: 'not_sent', reason: 'SMTP_URL is not set' });
    }
    const attempt = state.attempts.length + 1;
    const result: SendResult = rendered
      ? await this.#email.send(rendered.email)
      : { sent: false, error: renderError ?? 'could not render', permanent: false, durationMs: 0 };
    const record: MailAttempt = {
      attempt,
      at: Date.now(),
      durationMs: result.durationMs,
      ...(result.sent ? { messageId: result.messageId } : { error: result.error }),
    };
    const attempts = [...state.attempts, record];
    if (result.sent) return this.#finish(row, { status: 'sent', attempts });
    const retry = !result.permanent && attempt < this.#maxAttempts;
    this.#log?.warn(
      { outboxId: row.id, event: row.event, attempt, error: result.error },
      retry ? 'email delivery failed; will retry' : 'email delivery failed',
    );
    if (!retry) return this.#finish(row, { status: 'failed', attempts, reason: result.error });
    const next: MailState = { status: 'pending', attempts };
    await this.#db
      .update(outbox)
      .set({
        payload: sql`jsonb_set(${outbox.payload}, '{mail}', ${JSON.stringify(next)}::jsonb || jsonb_build_object('nextAttemptAt', ${nowMs} + ${this.#backoffMs(attempt)}))`,
      })
      .where(allOf(eq(outbox.tenantId, row.tenantId), eq(outbox.id, row.id)));
  }

  async #finish(row: OutboxRow, state: MailState): Promise<void> {
    const { lockedUntil: _released, nextAttemptAt: _done, ...final } = state;
    await this.#db
      .update(outbox)
      .set({
        processedAt: sql`now()`,
        payload: sql`jsonb_set(${outbox.payload}, '{mail}', ${JSON.stringify(final)}::jsonb)`,
      })
      .where(allOf(eq(outbox.tenantId, row.tenantId), eq(outbox.id, row.id)));
  }
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
async function renderInvitationEvent(db: Database, row: OutboxRow): Promise<Rendered> {
  const data = row.payload.data as InvitationEventData;
  const tenant = (table: { tenantId: unknown }) => eq(table.tenantId as typeof outbox.tenantId, row.tenantId);
  const [invitation] = await db
    .select()
    .from(organizationInvitations)
    .where(allOf(tenant(organizationInvitations), eq(organizationInvitations.id, data.invitationId)));
  if (!invitation) return { cancel: 'the invitation was deleted' };
  if (invitation.status !== 'Pending' || invitation.expiresAt.getTime() <= Date.now()) {
    return { cancel: `the invitation is no longer pending (${invitation.status})` };
  }
  let link = data.messagePayload.link;
  if (!link) {
    const [earlier] = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(
        allOf(
          eq(outbox.tenantId, row.tenantId),
          eq(outbox.event, INVITATION_MESSAGE_EVENT),
          lt(outbox.id, row.id),
          sql`${outbox.payload}->'data'->>'invitationId' = ${data.invitationId}`,
          sql`${outbox.payload}->'data'->'messagePayload'->>'link' is not null`,
        ),
      )
      .orderBy(desc(outbox.id))
      .limit(1);
    link = (earlier?.payload.data as InvitationEventData | undefined)?.messagePayload.link;
  }
  if (!link) return { cancel: 'no acceptance link (messagePayload.link)' };
  link = link.replaceAll('{invitationId}', encodeURIComponent(invitation.id));
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(allOf(tenant(organizations), eq(organizations.id, invitation.organizationId)));
  const [inviter] = invitation.inviterId
    ? await db
        .select({ name: users.name, username: users.username, primaryEmail: users.primaryEmail })
        .from(users)
        .where(allOf(tenant(users), eq(users.id, invitation.inviterId)))
    : [];
  const language = negotiateLanguage(data.messagePayload.locale);
  const content = renderInvitation(language, {
    organization: organization?.name ?? invitation.organizationId,
    inviter: inviter ? (inviter.name ?? inviter.username ?? inviter.primaryEmail ?? undefined) : undefined,
    link,
    expiresAt: invitation.expiresAt.getTime(),
  });
  return { email: { to: invitation.invitee, ...content } };
}
