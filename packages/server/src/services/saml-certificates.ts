// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { webcrypto, X509Certificate } from 'node:crypto';
import { generateId, SAML_CERTIFICATE_LIFESPAN_YEARS, type SamlCertificate } from '@gatehouse/schemas';
import * as x509 from '@peculiar/x509';
import { samlApplicationCertificates } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';

export type SamlCertificateRow = typeof samlApplicationCertificates.$inferSelect;

// Node's Web Crypto is the standard one; its type differs from the DOM lib's only in name.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const signingAlgorithm = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
} as const;

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${base64.match(/.{1,64}/g)?.join('\n')}\n-----END ${label}-----\n`;
}

/** A self-signed RSA-2048/SHA-256 certificate for signing an application's SAML assertions. */
export async function generateSamlCertificate(subject: string, lifeSpanInYears: number) {
  const keys = await webcrypto.subtle.generateKey(signingAlgorithm, true, ['sign', 'verify']);
  const notBefore = new Date();
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + lifeSpanInYears);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    // A positive serial: the first byte's high bit clear.
    serialNumber: `01${Buffer.from(webcrypto.getRandomValues(new Uint8Array(15))).toString('hex')}`,
    name: `CN=${subject.replace(/[,+"\\<>;=]/g, ' ').slice(0, 64)}`,
    notBefore,
    notAfter,
    signingAlgorithm,
    keys,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  const certificatePem = certificate.toString('pem');
  return {
    privateKey: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certificate: certificatePem,
    fingerprintSha256: new X509Certificate(certificatePem).fingerprint256,
    expiresAt: notAfter,
  };
}

/** Creates a certificate for a SAML application; the first one of an application is active at once. */
export async function createSamlCertificate(
  tx: TenantDb,
  application: { id: string; name: string },
  options: { lifeSpanInYears?: number | undefined; active: boolean },
): Promise<SamlCertificateRow> {
  const generated = await generateSamlCertificate(
    `Gatehouse SAML ${application.name}`,
    options.lifeSpanInYears ?? SAML_CERTIFICATE_LIFESPAN_YEARS.default,
  );
  return tx.insert(samlApplicationCertificates, {
    id: generateId(),
    applicationId: application.id,
    isActive: options.active,
    ...generated,
  });
}

/** The certificate's body without the PEM armour, as SAML metadata carries it. */
export function certificateBase64(certificatePem: string): string {
  return certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

export function toSamlCertificate(row: SamlCertificateRow): SamlCertificate {
  return {
    id: row.id,
    certificate: row.certificate,
    fingerprints: {
      sha256: { formatted: row.fingerprintSha256, unformatted: row.fingerprintSha256.replaceAll(':', '') },
    },
    active: row.isActive,
    createdAt: row.createdAt.getTime(),
    expiresAt: row.expiresAt.getTime(),
  };
}
