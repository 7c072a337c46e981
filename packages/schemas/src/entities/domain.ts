import { z } from 'zod';

/** Spec §4: a custom domain's status; see docs/areas/tenant-settings.md (custom domains) for what moves it. */
export const domainStatuses = ['PendingVerification', 'PendingSsl', 'Active', 'Error'] as const;
export type DomainStatus = (typeof domainStatuses)[number];

/** A DNS record the owner of the domain must publish. */
export const domainDnsRecordSchema = z.object({
  name: z.string(),
  type: z.enum(['CNAME', 'A', 'AAAA', 'TXT']),
  value: z.string(),
});
export type DomainDnsRecord = z.infer<typeof domainDnsRecordSchema>;

/** A tenant's custom domain (reference management API `/domains`). */
export const domainSchema = z.object({
  id: z.string(),
  domain: z.string(),
  status: z.enum(domainStatuses),
  errorMessage: z.string().nullable(),
  dnsRecords: z.array(domainDnsRecordSchema),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Domain = z.infer<typeof domainSchema>;

/** A host name of at least two labels, lower-cased: letters, digits and inner hyphens, at most 253 characters. */
export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/);

/** `POST /domains`. */
export const domainCreateSchema = z.strictObject({ domain: domainNameSchema });
export type DomainCreate = z.infer<typeof domainCreateSchema>;
