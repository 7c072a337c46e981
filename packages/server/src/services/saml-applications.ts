import { eq } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { applications, samlApplicationConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { notFound } from '../http/errors.ts';
import type { ApplicationRow } from './role-assignments.ts';

export type SamlConfigRow = typeof samlApplicationConfigs.$inferSelect;

/** The SAML application and its SAML settings, or 404 (also for an application of another type). */
export async function findSamlApplication(
  tx: TenantDb,
  id: string,
): Promise<{ app: ApplicationRow; config: SamlConfigRow }> {
  const app = await tx.findOne(applications, allOf(eq(applications.id, id), eq(applications.type, 'SAML')));
  const config = app && (await tx.findOne(samlApplicationConfigs, eq(samlApplicationConfigs.applicationId, id)));
  if (!app || !config) throw notFound();
  return { app, config };
}
