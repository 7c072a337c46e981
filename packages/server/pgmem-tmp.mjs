import { PGlite } from '@electric-sql/pglite';

const rss = () => `${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`;
const extra = process.argv.slice(3);
const db = await PGlite.create(
  process.argv[2],
  extra.length ? { startParams: [...PGlite.defaultStartParams, ...extra] } : {},
);
console.log(
  extra.join(' ') || 'defaults',
  rss(),
  (await db.query('show shared_buffers')).rows,
  (await db.query('show wal_buffers')).rows,
);
await db.close();
