// Scale data for benchmarks and demos: `npm run cli -- seed --users N --logs M`. Rows are made by
// set-based SQL (INSERT … SELECT over generate_series) in batches of one transaction each, so a
// million users take minutes, not a million API calls. Every value derives from md5(tenant, serial),
// which makes a run repeatable and lets audit-log rows point at seeded users without reading them.
// Over 600 lines on purpose: one set-based statement per seeded table, all sharing the md5 derivations above; they
// must agree row for row (a log's user, a role's holder), which one file keeps visible.
import { randomBytes } from 'node:crypto';
import type { PlanId } from '@gatehouse/schemas';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { seedTenant } from '../db/seed.ts';
import { encryptPassword } from '../services/user-passwords.ts';

/** A problem the CLI reports as one line (unknown tenant, logs without users…). */
export class SeedError extends Error {}

/** Where the seed keeps its progress in `tenant_configs`, so a later run continues instead of colliding. */
export const SEED_STATE_KEY = 'seed.scale';

export type SeedRun = {
  at: string;
  usersAdded: number;
  usersSeconds: number;
  logsAdded: number;
  logsSeconds: number;
};

/** Serials are the highest md5 inputs used so far; runs are the last ten runs that added rows. */
export type SeedState = { userSerial: number; logSerial: number; runs: SeedRun[] };

export type SeedProgress = {
  table: 'users' | 'logs';
  /** 'indexes': every row is in, the dropped indexes are being rebuilt (bulk mode). */
  phase: 'rows' | 'indexes';
  done: number;
  total: number;
  seconds: number;
};

export type ScaleSeedOptions = {
  tenantId: string;
  /** The tenant's user count to reach (users already there count). */
  users: number;
  /** The tenant's audit-log row count to reach. */
  logs: number;
  /** The password of seeded users that have one (most do); random when not given. */
  password?: string | undefined;
  /** Create the tenant (with its signing key and management API) when it does not exist. */
  createTenant?: boolean | undefined;
  /** Subscribe the tenant to this plan (the cloud edition's quotas and audit-log retention). */
  plan?: PlanId | undefined;
  batchSize?: { users?: number; logs?: number } | undefined;
  /** Fewest new rows for a bulk load ({@link BULK_MIN_ROWS}); tests lower it to cover that path. */
  bulkMinRows?: number | undefined;
  onProgress?: ((progress: SeedProgress) => void) | undefined;
};

type TableReport = { before: number; after: number; added: number; seconds: number; perSecond: number | null };

export type ScaleSeedReport = {
  tenantId: string;
  users: TableReport;
  logs: TableReport;
  /** Set when this run added users: the password every seeded user with a password has. */
  password?: string;
  roles: { id: string; name: string }[];
  applications: { id: string; name: string; type: string }[];
  /** Every run that added rows, newest last (how long seeding took, for the bench). */
  runs: SeedRun[];
};

/** Batch sizes: PGlite runs in this process's WASM memory, so it gets smaller transactions. */
export const DEFAULT_BATCH = {
  postgres: { users: 25_000, logs: 100_000 },
  pglite: { users: 5_000, logs: 20_000 },
} as const;

/** Roles seeded users may hold (type User); found by name, so an admin's same-named role is reused. */
export const SEED_ROLES = [
  { id: 'seed-role-support', name: 'Support agent', description: 'Reads user profiles and resets passwords.' },
  { id: 'seed-role-billing', name: 'Billing manager', description: 'Manages invoices and plans.' },
  { id: 'seed-role-editor', name: 'Content editor', description: 'Publishes and edits content.' },
  { id: 'seed-role-auditor', name: 'Auditor', description: 'Read-only access to reports.' },
  { id: 'seed-role-beta', name: 'Beta tester', description: 'Early access to new features.' },
] as const;

/** Applications the audit-log rows name (a web app, a SPA, a native app, a backend and a SAML service provider). */
export const SEED_APPLICATIONS = [
  {
    id: 'seed-app-web',
    name: 'Customer portal',
    type: 'Traditional',
    redirect: 'https://portal.example.com/callback',
  },
  { id: 'seed-app-spa', name: 'Dashboard', type: 'SPA', redirect: 'https://dashboard.example.com/callback' },
  { id: 'seed-app-native', name: 'Mobile app', type: 'Native', redirect: 'com.example.app://callback' },
  { id: 'seed-app-m2m', name: 'Billing backend', type: 'MachineToMachine', redirect: null },
  { id: 'seed-app-saml', name: 'Helpdesk (SAML)', type: 'SAML', redirect: null },
] as const;

/**
 * Log keys of the spec's catalogue (§3) with their share in per mille, the application kind they
 * come from, whether a user is involved, and the error a failed entry carries.
 */
export const SEED_LOG_KEYS = [
  { key: 'Interaction.SignIn.Submit', share: 300, app: 'user', user: true, error: 'invalid_credentials' },
  { key: 'ExchangeTokenBy.RefreshToken', share: 260, app: 'user', user: true, error: 'invalid_grant' },
  { key: 'ExchangeTokenBy.AuthorizationCode', share: 200, app: 'user', user: true, error: 'invalid_grant' },
  { key: 'ExchangeTokenBy.ClientCredentials', share: 80, app: 'm2m', user: false, error: 'invalid_client' },
  { key: 'Interaction.Register.Submit', share: 40, app: 'user', user: true, error: 'identifier_in_use' },
  { key: 'Interaction.ForgotPassword.Submit', share: 30, app: 'user', user: true, error: 'invalid_code' },
  { key: 'JwtCustomizer.AccessToken', share: 30, app: 'user', user: true, error: 'script_error' },
  { key: 'ExchangeTokenBy.TokenExchange', share: 20, app: 'm2m', user: true, error: 'invalid_target' },
  { key: 'SamlApplication.AuthnRequest', share: 20, app: 'saml', user: false, error: 'invalid_request' },
  { key: 'SamlApplication.Callback', share: 20, app: 'saml', user: true, error: 'session_not_found' },
] as const;

// [display, ascii] pairs: names with accents and other scripts, usernames in ASCII (the username rule is \w).
const FIRST_NAMES: [string, string][] = [
  ['Olivia', 'olivia'],
  ['Liam', 'liam'],
  ['Emma', 'emma'],
  ['Noah', 'noah'],
  ['Ava', 'ava'],
  ['Mateo', 'mateo'],
  ['José', 'jose'],
  ['Zoë', 'zoe'],
  ['Łukasz', 'lukasz'],
  ['Søren', 'soren'],
  ['Amélie', 'amelie'],
  ['Björn', 'bjorn'],
  ['Chloé', 'chloe'],
  ['Aiko', 'aiko'],
  ['Hiroshi', 'hiroshi'],
  ['Mei', 'mei'],
  ['Wei', 'wei'],
  ['Ji-woo', 'jiwoo'],
  ['Minh', 'minh'],
  ['Priya', 'priya'],
  ['Arjun', 'arjun'],
  ['Fatima', 'fatima'],
  ['Omar', 'omar'],
  ['Leyla', 'leyla'],
  ['Mehmet', 'mehmet'],
  ['Olga', 'olga'],
  ['Dmitri', 'dmitri'],
  ['Agnieszka', 'agnieszka'],
  ['João', 'joao'],
  ['Beatriz', 'beatriz'],
  ['Giulia', 'giulia'],
  ['Lorenzo', 'lorenzo'],
  ['Hannah', 'hannah'],
  ['Lukas', 'lukas'],
  ['Sofía', 'sofia'],
  ['Nia', 'nia'],
  ['Kwame', 'kwame'],
  ['Aroha', 'aroha'],
  ['Sean', 'sean'],
  ['Grace', 'grace'],
  ['Amara', 'amara'],
  ['Yusuf', 'yusuf'],
  ['Ingrid', 'ingrid'],
  ['Matteo', 'matteo'],
  ['Élodie', 'elodie'],
  ['Tomás', 'tomas'],
  ['Ana', 'ana'],
  ['Kenji', 'kenji'],
  ['Sakura', 'sakura'],
  ['Haruto', 'haruto'],
  ['Jun', 'jun'],
  ['Seo-yeon', 'seoyeon'],
  ['Linh', 'linh'],
  ['Ravi', 'ravi'],
  ['Ananya', 'ananya'],
  ['Zainab', 'zainab'],
  ['Karim', 'karim'],
  ['Elif', 'elif'],
  ['Can', 'can'],
  ['Natasha', 'natasha'],
  ['Igor', 'igor'],
  ['Zofia', 'zofia'],
  ['Marek', 'marek'],
  ['Camila', 'camila'],
  ['Diego', 'diego'],
  ['Valentina', 'valentina'],
  ['Francesco', 'francesco'],
  ['Freya', 'freya'],
  ['Oskar', 'oskar'],
  ['Maja', 'maja'],
  ['Thabo', 'thabo'],
  ['Chiamaka', 'chiamaka'],
  ['Tane', 'tane'],
  ['Aoife', 'aoife'],
  ['Niamh', 'niamh'],
  ['Ethan', 'ethan'],
  ['Chloe', 'chloe'],
  ['Isabella', 'isabella'],
  ['Lucas', 'lucas'],
  ['Mia', 'mia'],
  ['Henrik', 'henrik'],
  ['Astrid', 'astrid'],
  ['Pedro', 'pedro'],
  ['Lucía', 'lucia'],
  ['Bruno', 'bruno'],
  ['Mariam', 'mariam'],
  ['Tariq', 'tariq'],
  ['Noor', 'noor'],
  ['Eitan', 'eitan'],
  ['Tamar', 'tamar'],
  ['Nikos', 'nikos'],
  ['Eleni', 'eleni'],
  ['Vikram', 'vikram'],
  ['Deepa', 'deepa'],
  ['Xin', 'xin'],
  ['Hao', 'hao'],
  ['Yuna', 'yuna'],
  ['Daniel', 'daniel'],
  ['Sarah', 'sarah'],
  ['Ahmed', 'ahmed'],
];
const LAST_NAMES: [string, string][] = [
  ['Smith', 'smith'],
  ['Johnson', 'johnson'],
  ['Müller', 'muller'],
  ['García', 'garcia'],
  ['Martínez', 'martinez'],
  ['Nguyễn', 'nguyen'],
  ['Kowalski', 'kowalski'],
  ['Yamada', 'yamada'],
  ['Tanaka', 'tanaka'],
  ["O'Brien", 'obrien'],
  ['Ødegaard', 'odegaard'],
  ['Świątek', 'swiatek'],
  ['Zhang', 'zhang'],
  ['Wang', 'wang'],
  ['Kim', 'kim'],
  ['Park', 'park'],
  ['Öztürk', 'ozturk'],
  ['Silva', 'silva'],
  ['Santos', 'santos'],
  ['Ivanova', 'ivanova'],
  ['Petrov', 'petrov'],
  ['Al-Sayed', 'alsayed'],
  ['Haddad', 'haddad'],
  ['Dubois', 'dubois'],
  ['Lefèvre', 'lefevre'],
  ['Rossi', 'rossi'],
  ['Bianchi', 'bianchi'],
  ['Schmidt', 'schmidt'],
  ['Novák', 'novak'],
  ['Jensen', 'jensen'],
  ['Andersson', 'andersson'],
  ['Patel', 'patel'],
  ['Sharma', 'sharma'],
  ['Mensah', 'mensah'],
  ['Okafor', 'okafor'],
  ['Walker', 'walker'],
  ['Brown', 'brown'],
  ['Murphy', 'murphy'],
  ['Costa', 'costa'],
  ['Horvat', 'horvat'],
];
/**
 * Half the surnames are built from these parts (25 × 24 = 600 rarer names such as Belgaard or
 * Torvalli), so that, as in real directories, a few names are common and most are rare: with only
 * the forty common names above, every surname's trigrams would match one user in forty.
 */
const SURNAME_STARTS = [
  'Ander',
  'Bel',
  'Car',
  'Dal',
  'Esper',
  'Fer',
  'Gal',
  'Hal',
  'Ivar',
  'Jor',
  'Kal',
  'Lor',
  'Mar',
  'Nor',
  'Ost',
  'Pel',
  'Quin',
  'Ros',
  'Sal',
  'Tor',
  'Ulm',
  'Val',
  'Wes',
  'Yar',
  'Zan',
];
const SURNAME_ENDS = [
  'son',
  'ini',
  'ez',
  'ova',
  'berg',
  'ski',
  'ton',
  'ley',
  'mann',
  'etti',
  'ard',
  'ois',
  'ic',
  'sen',
  'ato',
  'well',
  'field',
  'ovic',
  'ides',
  'ama',
  'gaard',
  'valli',
  'escu',
  'oglu',
];
/** Some people write their whole name in their own script. */
const NATIVE_NAMES = [
  '山田 花子',
  '田中 太郎',
  '李伟',
  '王芳',
  '김민준',
  '이서연',
  'Иван Петров',
  'Анна Смирнова',
  'محمد العلي',
  'فاطمة الزهراء',
  'Δημήτρης Παπαδόπουλος',
  'שירה כהן',
  'Nguyễn Thị Lan',
  'राहुल शर्मा',
];
const EMAIL_DOMAINS = [
  'gmail.com',
  'outlook.com',
  'yahoo.com',
  'icloud.com',
  'proton.me',
  'fastmail.com',
  'gmx.de',
  'web.de',
  'orange.fr',
  'libero.it',
  'qq.com',
  'naver.com',
  'yandex.ru',
  'acme.io',
  'example.com',
  'corp.example.org',
];
/** Country calling codes; none is a prefix of another, so code + serial stays unique. */
const CALLING_CODES = ['1', '44', '49', '33', '81', '86', '91', '55', '34', '39', '61', '82'];
const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'ja-JP', 'zh-CN', 'pt-BR', 'ko-KR', 'ar-EG'];
const PLANS = ['free', 'free', 'free', 'pro', 'pro', 'team', 'enterprise'];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
  'ExampleApp/4.2.0 (iOS 18.1; iPhone15,2)',
  'okhttp/4.12.0',
  'curl/8.11.0',
];

const json = (value: unknown): SQL => sql`${JSON.stringify(value)}::jsonb`;
/** 32 random-looking bits of an md5 hex string, from position `at` (1-based). */
const bits = (hex: SQL, at: number): SQL => sql`('x' || substr(${hex}, ${sql.raw(String(at))}, 8))::bit(32)::bigint`;
/** An element of a jsonb array constant, picked by a number. */
const pick = (list: readonly unknown[], by: SQL): SQL =>
  sql`(${json(list)} ->> (${by} % ${sql.raw(String(list.length))})::int)`;
/** The id of seeded user `serial`: 12 hex digits of md5, like a generated id (lowercase alphanumerics). */
const userIdOf = (tenantId: string, serial: SQL): SQL =>
  sql`substr(md5(${tenantId}::text || '/user/' || ${serial}), 1, 12)`;

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

async function scalar(db: Database, query: SQL): Promise<number> {
  const [row] = rowsOf(await db.execute(query));
  return Number(row ? Object.values(row)[0] : 0);
}

async function readState(db: Database, tenantId: string): Promise<SeedState> {
  const [row] = rowsOf(
    await db.execute(sql`select value from tenant_configs where tenant_id = ${tenantId} and key = ${SEED_STATE_KEY}`),
  );
  const value = (row?.value ?? {}) as Partial<SeedState>;
  return { userSerial: value.userSerial ?? 0, logSerial: value.logSerial ?? 0, runs: value.runs ?? [] };
}

function writeState(db: Database, tenantId: string, state: SeedState): Promise<unknown> {
  return db.execute(sql`
    insert into tenant_configs (tenant_id, key, value) values (${tenantId}, ${SEED_STATE_KEY}, ${json(state)})
    on conflict (tenant_id, key) do update set value = excluded.value`);
}

/** The tenant's users from the counter the users table's triggers keep (what the user list's total reads). */
export function countUsers(db: Database, tenantId: string): Promise<number> {
  return scalar(db, sql`select coalesce(sum(count), 0) from user_counts where tenant_id = ${tenantId}`);
}

export function countLogs(db: Database, tenantId: string): Promise<number> {
  return scalar(db, sql`select count(*) from logs where tenant_id = ${tenantId}`);
}

async function ensureTenant(db: Database, tenantId: string, create: boolean): Promise<void> {
  const exists = await scalar(db, sql`select count(*) from tenants where id = ${tenantId}`);
  if (exists) return;
  if (!create) throw new SeedError(`no tenant "${tenantId}" (add --create-tenant to create it)`);
  if (!/^[a-z0-9-]{1,21}$/.test(tenantId))
    throw new SeedError('a new tenant id has 1 to 21 lowercase letters, digits or dashes');
  await db.execute(sql`insert into tenants (id, name, tag) values (${tenantId}, ${tenantId}, 'development')
    on conflict do nothing`);
  await seedTenant(db, tenantId);
}

/** The tenant's plan from now on, for a year (a subscription row, as a checkout would write it). */
async function subscribe(db: Database, tenantId: string, plan: PlanId): Promise<void> {
  await db.execute(sql`insert into tenant_subscriptions (tenant_id, plan_id, current_period_start, current_period_end)
    values (${tenantId}, ${plan}, now(), now() + interval '1 year')
    on conflict (tenant_id) do update set plan_id = excluded.plan_id, status = 'active', updated_at = now()`);
}

/** The seed's roles and applications, created once; answers the role ids to assign (found by name). */
async function ensureFixtures(db: Database, tenantId: string) {
  for (const role of SEED_ROLES) {
    await db.execute(sql`insert into roles (tenant_id, id, name, description, type)
      values (${tenantId}, ${role.id}, ${role.name}, ${role.description}, 'User') on conflict do nothing`);
  }
  const roles = rowsOf(
    await db.execute(sql`select id, name from roles where tenant_id = ${tenantId} and type = 'User'
      and name in (${sql.join(
        SEED_ROLES.map((role) => sql`${role.name}`),
        sql`, `,
      )}) order by name`),
  ).map((row) => ({ id: String(row.id), name: String(row.name) }));

  for (const app of SEED_APPLICATIONS) {
    const metadata = app.redirect ? { redirectUris: [app.redirect], postLogoutRedirectUris: [] } : {};
    await db.execute(sql`insert into applications (tenant_id, id, name, secret, type, description, oidc_client_metadata)
      values (${tenantId}, ${app.id}, ${app.name}, ${randomBytes(24).toString('base64url')}, ${app.type},
              'Seeded for benchmarks and demos.', ${json(metadata)})
      on conflict do nothing`);
  }
  const saml = SEED_APPLICATIONS.find((app) => app.type === 'SAML');
  if (saml) {
    await db.execute(sql`insert into saml_application_configs (tenant_id, application_id, entity_id, acs_url)
      values (${tenantId}, ${saml.id}, 'https://helpdesk.example.com/saml/metadata',
              ${json({ binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', url: 'https://helpdesk.example.com/saml/acs' })})
      on conflict do nothing`);
  }
  return roles;
}

/**
 * One batch of users with serials `from..to`, in one statement: the users (conflicts on any unique
 * identifier skipped), about one in ten holding a role (one in fifty two), counted by the triggers.
 */
function insertUsers(
  tenantId: string,
  range: { from: number; to: number; last: number },
  start: Date,
  stepSeconds: number,
  password: { encrypted: string; method: string },
  roleIds: string[],
): SQL {
  const h = sql`s.h`;
  const r1 = bits(h, 13);
  const r2 = bits(h, 21);
  const first = sql`(${json(FIRST_NAMES)} -> (p.r1 % ${sql.raw(String(FIRST_NAMES.length))})::int)`;
  const common = sql`(${json(LAST_NAMES)} -> ((p.r2 / 2) % ${sql.raw(String(LAST_NAMES.length))})::int)`;
  const built = sql`${pick(SURNAME_STARTS, sql`(p.r2 / 2)`)} || ${pick(SURNAME_ENDS, sql`(p.r2 / 50)`)}`;
  const last = sql`(case when p.r2 % 2 = 0 then ${common} else jsonb_build_array(${built}, lower(${built})) end)`;
  const roleOf = (offset: number) =>
    sql`(${json(roleIds)} ->> ((b.v / 100 + ${sql.raw(String(offset))}) % ${sql.raw(String(roleIds.length))})::int)`;
  const roleInsert = roleIds.length
    ? sql`, assigned as (
        insert into users_roles (tenant_id, user_id, role_id)
        select ${tenantId}, inserted.id, role_id from inserted
        cross join lateral (select ('x' || substr(inserted.id, 1, 8))::bit(32)::bigint as v) b
        cross join lateral (
          select ${roleOf(0)} as role_id where b.v % 10 = 0
          union all select ${roleOf(1)} where b.v % 50 = 0 and ${sql.raw(String(roleIds.length))} > 1
        ) chosen
        returning 1)`
    : sql``;
  return sql`
    with s as (
      select n, h, md5(h) as h2
      from (select n, md5(${tenantId}::text || '/user/' || n) as h
            from generate_series(${range.from}::bigint, ${range.to}::bigint) as n) hashed
    ), p as (
      select n, substr(h, 1, 12) as id, ${r1} as r1, ${r2} as r2, ${bits(sql`s.h2`, 1)} % 1000 as k,
        ${bits(sql`s.h2`, 9)} % 1000 as k2,
        least(${start.toISOString()}::timestamptz,
              ${start.toISOString()}::timestamptz - (${range.last}::bigint - n) * ${stepSeconds}::float8 * interval '1 second') as created
      from s
    ), v as (
      select p.*, ${first} ->> 0 as first_name, ${first} ->> 1 as first_slug,
             ${last} ->> 0 as last_name, ${last} ->> 1 as last_slug
      from p
    ), inserted as (
      insert into users (tenant_id, id, username, primary_email, primary_phone, password_encrypted,
                         password_encryption_method, name, avatar, profile, custom_data, is_suspended,
                         last_sign_in_at, created_at, updated_at)
      select ${tenantId}, id,
        -- 4% phone only, 8% email only, 6% username only, the rest username and email.
        case when k < 120 then null
             else case (r1 / 100) % 4
               when 0 then first_slug || '_' || last_slug || n
               when 1 then substr(first_slug, 1, 1) || last_slug || n
               when 2 then last_slug || '_' || first_slug || '_' || n
               else first_slug || n end
        end,
        case when k < 40 or (k >= 120 and k < 180) then null
             else case r2 % 3
               when 0 then first_slug || '.' || last_slug || n
               when 1 then first_slug || n
               else substr(first_slug, 1, 1) || '.' || last_slug || '.' || n end
               || '@' || ${pick(EMAIL_DOMAINS, sql`(r2 / 7)`)}
        end,
        case when k < 40 or k2 % 3 = 0
             then ${pick(CALLING_CODES, sql`(r1 / 11)`)} || (2000000000 + n)::text end,
        case when (r2 / 3) % 100 < 85 then ${password.encrypted} end,
        case when (r2 / 3) % 100 < 85 then ${password.method} end,
        case when k2 % 20 = 0 then null
             when k2 % 50 = 1 then ${pick(NATIVE_NAMES, sql`(r2 / 5)`)}
             else first_name || ' ' || last_name end,
        case when k2 % 10 = 3 then 'https://avatars.example.com/' || id || '.png' end,
        case when k2 % 3 = 0
             then jsonb_build_object('givenName', first_name, 'familyName', last_name,
                                     'locale', ${pick(LOCALES, sql`(r1 / 13)`)})
             else '{}'::jsonb end,
        case when k2 % 4 = 1
             then jsonb_build_object('plan', ${pick(PLANS, sql`(r2 / 17)`)}, 'newsletter', r1 % 2 = 0)
             else '{}'::jsonb end,
        (r1 / 19) % 100 = 7,
        case when (r1 / 23) % 10 < 7
             then greatest(created, ${start.toISOString()}::timestamptz - (r2 % 2592000) * interval '1 second') end,
        created, created
      from v
      on conflict do nothing
      returning id
    )${roleInsert}
    select count(*) as users from inserted`;
}

/** A text[] constant. */
const textArray = (list: readonly string[]): SQL =>
  sql`array[${sql.join(
    list.map((item) => sql`${item}`),
    sql`, `,
  )}]::text[]`;

/**
 * One batch of audit-log rows `from..to` (of `total` this run), in time order over the last 30 days.
 * Only the id (md5 of the serial: unique) and the user (a seeded user's id, derived from its serial)
 * need to be reproducible; the rest draws from random(), which is several times cheaper than
 * slicing md5 digests at ten million rows.
 */
function insertLogs(
  tenantId: string,
  range: { from: number; to: number; first: number; total: number },
  start: Date,
  userSerial: number,
): SQL {
  let upper = 0;
  const keyIndex = sql.join(
    SEED_LOG_KEYS.map((entry, index) => {
      upper += entry.share;
      return sql`when kr < ${sql.raw(String(upper))} then ${sql.raw(String(index + 1))}`;
    }),
    sql` `,
  );
  const userApps = SEED_APPLICATIONS.filter((app) => ['Traditional', 'SPA', 'Native'].includes(app.type)).map(
    (app) => app.id,
  );
  const apps = SEED_LOG_KEYS.map((entry) =>
    entry.app === 'user' ? '' : entry.app === 'm2m' ? 'seed-app-m2m' : 'seed-app-saml',
  );
  const windowSeconds = 30 * 24 * 3600;
  return sql`
    with p as (
      select m, (random() * 1000)::int as kr, (random() * 2147483647)::bigint as r1,
             (random() * 2147483647)::bigint as r2, random() < 0.06 as failed
      from generate_series(${range.from}::bigint, ${range.to}::bigint) as m
    ), v as (
      select p.*, case ${keyIndex} else 1 end as ki from p
    ), w as (
      select v.*,
        case when (${sql.raw(`array[${SEED_LOG_KEYS.map((entry) => entry.user).join(', ')}]`)})[ki]
             then ${userIdOf(tenantId, sql`(1 + r1 % ${userSerial}::bigint)`)} end as user_id,
        coalesce(nullif((${textArray(apps)})[ki], ''), (${textArray(userApps)})[1 + r2 % ${sql.raw(String(userApps.length))}])
          as application_id
      from v
    )
    insert into logs (tenant_id, id, key, user_id, application_id, payload, created_at)
    select ${tenantId}, substr(md5(${tenantId}::text || '/log/' || m), 1, 21), (${textArray(SEED_LOG_KEYS.map((entry) => entry.key))})[ki],
      user_id, application_id,
      jsonb_strip_nulls(jsonb_build_object(
        'result', case when failed then 'Error' else 'Success' end,
        'userId', user_id,
        'applicationId', application_id,
        'ip', case when r2 % 5 = 0 then '2001:db8:' || to_hex(r1 % 65536) || '::' || to_hex(r2 % 65536)
                   else (${textArray(['203.0.113.', '198.51.100.', '192.0.2.'])})[1 + r1 % 3] || (1 + r2 % 254)::text end,
        'userAgent', (${textArray(USER_AGENTS)})[1 + (r2 / 7) % ${sql.raw(String(USER_AGENTS.length))}],
        'error', case when failed then (${textArray(SEED_LOG_KEYS.map((entry) => entry.error))})[ki] end,
        'seeded', true)),
      ${start.toISOString()}::timestamptz - interval '30 days'
        + ((m - ${range.first}::bigint) + random()) / ${range.total}::float8 * ${windowSeconds} * interval '1 second'
    from w
    on conflict do nothing`;
}

function report(before: number, after: number, seconds: number): TableReport {
  const added = after - before;
  return { before, after, added, seconds, perSecond: added > 0 && seconds > 0 ? Math.round(added / seconds) : null };
}

/** Bulk mode starts at this many new rows, and when they at least double the table (all tenants). */
export const BULK_MIN_ROWS = 100_000;

type SecondaryIndex = { drop: SQL; create: SQL; name: string };

/**
 * The indexes bulk mode rebuilds: every index of the table except those that answer ON CONFLICT
 * (primary key and unique indexes) on users; on logs also the primary key, whose random ids would
 * otherwise be inserted one by one into a 10-million-entry btree. Definitions come from the
 * catalogue, so they are recreated exactly as the migrations made them.
 */
async function rebuildableIndexes(db: Database, table: 'users' | 'logs'): Promise<SecondaryIndex[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, i.indisunique as unique,
             con.conname as constraint_name, pg_get_constraintdef(con.oid) as constraint_definition
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      left join pg_constraint con on con.conindid = i.indexrelid and con.conrelid = i.indrelid
      where i.indrelid = ${table}::regclass
      order by c.relname`),
  );
  const quoted = (name: unknown) => `"${String(name).replaceAll('"', '""')}"`;
  return rows.flatMap((row): SecondaryIndex[] => {
    if (row.constraint_name) {
      if (table !== 'logs' || !String(row.constraint_definition).startsWith('PRIMARY KEY')) return [];
      const constraint = quoted(row.constraint_name);
      return [
        {
          name: String(row.constraint_name),
          drop: sql.raw(`alter table ${table} drop constraint ${constraint}`),
          create: sql.raw(`alter table ${table} add constraint ${constraint} ${String(row.constraint_definition)}`),
        },
      ];
    }
    if (row.unique) return [];
    return [
      {
        name: String(row.name),
        drop: sql.raw(`drop index ${quoted(row.name)}`),
        create: sql.raw(String(row.definition)),
      },
    ];
  });
}

async function tableRows(db: Database, table: 'users' | 'logs'): Promise<number> {
  return Math.max(0, await scalar(db, sql`select reltuples::bigint from pg_class where oid = ${table}::regclass`));
}

type Fill = {
  table: 'users' | 'logs';
  needed: number;
  batchSize: number;
  kind: 'pglite' | 'postgres';
  bulkMinRows: number;
  onProgress?: ((progress: SeedProgress) => void) | undefined;
  /** Inserts one batch `from..to` of serials in `tx` and answers how many rows it added. */
  batch: (tx: Database, from: number, to: number) => Promise<number>;
  /** Records the last serial used, in the same transaction as the rows. */
  advance: (tx: Database, to: number) => Promise<unknown>;
  serial: number;
};

/**
 * Adds `needed` rows in batches. A small fill commits every batch (an interrupted run resumes). A
 * bulk fill (a fresh or small table getting many rows) is one transaction that drops the
 * rebuildable indexes, inserts every batch and recreates them: a btree or trigram index built
 * from sorted rows costs a fraction of millions of random insertions (on PostgreSQL 15 with the
 * default 128 MB of shared buffers, audit-log inserts fell from 14,000 to 3,000 rows/s by the
 * millionth row). The table is locked meanwhile and an interruption keeps nothing, indexes included.
 */
async function fill(db: Database, work: Fill): Promise<{ added: number; serial: number; bulk: boolean }> {
  const started = performance.now();
  const bulk = work.needed >= work.bulkMinRows && work.needed >= (await tableRows(db, work.table));
  let serial = work.serial;
  let added = 0;
  let misses = 0;
  const progress = (phase: SeedProgress['phase']) =>
    work.onProgress?.({
      table: work.table,
      phase,
      done: added,
      total: work.needed,
      seconds: (performance.now() - started) / 1000,
    });
  const step = async (tx: Database) => {
    const from = serial + 1;
    const to = serial + Math.min(work.batchSize, work.needed - added);
    const inserted = await work.batch(tx, from, to);
    await work.advance(tx, to);
    return { to, inserted };
  };
  const account = ({ to, inserted }: { to: number; inserted: number }) => {
    serial = to;
    added += inserted;
    // Serials whose rows collide with existing ones are skipped; give up when nothing fits any more.
    misses = inserted === 0 ? misses + 1 : 0;
    if (misses >= 5) throw new SeedError(`new ${work.table} keep colliding with existing ones; stopped`);
    progress('rows');
  };
  if (!bulk) {
    while (added < work.needed) account(await db.transaction((tx) => step(tx as unknown as Database)));
    return { added, serial, bulk };
  }
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    // PGlite keeps its small in-process memory settings; a PostgreSQL server sorts index builds in more memory.
    if (work.kind === 'postgres') await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    const indexes = await rebuildableIndexes(tx, work.table);
    for (const index of indexes) await tx.execute(index.drop);
    while (added < work.needed) account(await step(tx));
    progress('indexes');
    for (const index of indexes) await tx.execute(index.create);
  });
  return { added, serial, bulk };
}

/**
 * Fills a tenant up to `users` users and `logs` audit-log rows (what exists counts; nothing is
 * removed). Serials continue from the seed state kept in the tenant's configuration, so a later run
 * adds new rows instead of colliding with earlier ones.
 */
export async function seedScale(
  db: Database,
  kind: 'pglite' | 'postgres',
  options: ScaleSeedOptions,
): Promise<ScaleSeedReport> {
  const { tenantId } = options;
  const batch = { ...DEFAULT_BATCH[kind], ...options.batchSize };
  await ensureTenant(db, tenantId, options.createTenant ?? false);
  if (options.plan) await subscribe(db, tenantId, options.plan);
  const roles = await ensureFixtures(db, tenantId);
  const state = await readState(db, tenantId);
  const usersBefore = await countUsers(db, tenantId);
  const logsBefore = await countLogs(db, tenantId);
  const run: SeedRun = { at: new Date().toISOString(), usersAdded: 0, usersSeconds: 0, logsAdded: 0, logsSeconds: 0 };
  let password: string | undefined;

  const usersNeeded = Math.max(0, options.users - usersBefore);
  let usersAfter = usersBefore;
  if (usersNeeded > 0) {
    const started = performance.now();
    password = options.password ?? randomBytes(12).toString('base64url');
    const { passwordEncrypted, passwordEncryptionMethod } = await encryptPassword(password);
    const start = new Date();
    // This run's users are spread over the two years before now, oldest serial first.
    const stepSeconds = (2 * 365 * 24 * 3600) / usersNeeded;
    const last = state.userSerial + usersNeeded;
    const roleIds = roles.map((role) => role.id);
    const filled = await fill(db, {
      table: 'users',
      needed: usersNeeded,
      batchSize: batch.users,
      kind,
      bulkMinRows: options.bulkMinRows ?? BULK_MIN_ROWS,
      onProgress: options.onProgress,
      serial: state.userSerial,
      batch: (tx, from, to) =>
        scalar(
          tx,
          insertUsers(
            tenantId,
            { from, to, last },
            start,
            stepSeconds,
            { encrypted: passwordEncrypted, method: passwordEncryptionMethod },
            roleIds,
          ),
        ),
      advance: (tx, to) => writeState(tx, tenantId, { ...state, userSerial: to }),
    });
    state.userSerial = filled.serial;
    usersAfter = usersBefore + filled.added;
    run.usersAdded = filled.added;
    // What autovacuum does after a bulk load in production (statistics, visibility map for
    // index-only scans); the seeded machine may run with autovacuum off or not get to it yet.
    await db.execute(sql`vacuum (analyze) users`);
    await db.execute(sql`vacuum (analyze) users_roles`);
    run.usersSeconds = round((performance.now() - started) / 1000);
  }

  const logsNeeded = Math.max(0, options.logs - logsBefore);
  let logsAfter = logsBefore;
  if (logsNeeded > 0) {
    if (state.userSerial === 0) throw new SeedError('audit-log rows name seeded users: seed users first (--users)');
    const started = performance.now();
    const start = new Date();
    const first = state.logSerial + 1;
    const userSerial = state.userSerial;
    const filled = await fill(db, {
      table: 'logs',
      needed: logsNeeded,
      batchSize: batch.logs,
      kind,
      bulkMinRows: options.bulkMinRows ?? BULK_MIN_ROWS,
      onProgress: options.onProgress,
      serial: state.logSerial,
      batch: async (tx, from, to) => {
        await tx.execute(insertLogs(tenantId, { from, to, first, total: logsNeeded }, start, userSerial));
        return to - from + 1;
      },
      advance: (tx, to) => writeState(tx, tenantId, { ...state, logSerial: to }),
    });
    state.logSerial = filled.serial;
    logsAfter = await countLogs(db, tenantId);
    run.logsAdded = logsAfter - logsBefore;
    await db.execute(sql`vacuum (analyze) logs`);
    run.logsSeconds = round((performance.now() - started) / 1000);
  }

  if (run.usersAdded || run.logsAdded) {
    state.runs = [...state.runs, run].slice(-10);
    await writeState(db, tenantId, state);
  }
  const applications = rowsOf(
    await db.execute(
      sql`select id, name, type from applications where tenant_id = ${tenantId} and id in (${sql.join(
        SEED_APPLICATIONS.map((app) => sql`${app.id}`),
        sql`, `,
      )}) order by id`,
    ),
  ).map((row) => ({ id: String(row.id), name: String(row.name), type: String(row.type) }));
  return {
    tenantId,
    users: report(usersBefore, usersAfter, run.usersSeconds),
    logs: report(logsBefore, logsAfter, run.logsSeconds),
    ...(password !== undefined && run.usersAdded > 0 ? { password } : {}),
    roles,
    applications,
    runs: state.runs,
  };
}

const round = (value: number) => Math.round(value * 100) / 100;
