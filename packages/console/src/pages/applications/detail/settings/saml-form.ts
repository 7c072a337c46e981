import {
  applicationDescriptionSchema,
  applicationNameSchema,
  pemCertificatePattern,
  SAML_BINDING_POST,
  type SamlApplication,
  type SamlApplicationPatch,
  type SamlBinding,
  samlAcsBindings,
  samlApplicationPatchSchema,
  samlAttributeMappingSchema,
  samlBindings,
  samlEncryptionSchema,
  samlNameIdFormats,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { alwaysRefine, type RuleMessages, webUrlProblem } from '../../form/rules.ts';

export type AttributeRow = { claim: string; attribute: string };

export type SamlFormValues = {
  name: string;
  description: string;
  entityId: string;
  acsUrl: string;
  acsBinding: SamlBinding;
  nameIdFormat: (typeof samlNameIdFormats)[number];
  attributeMapping: AttributeRow[];
  encryptAssertion: boolean;
  encryptThenSign: boolean;
  certificate: string;
};

export function toSamlForm(saml: SamlApplication): SamlFormValues {
  return {
    name: saml.name,
    description: saml.description ?? '',
    entityId: saml.entityId ?? '',
    acsUrl: saml.acsUrl?.url ?? '',
    // Only HTTP-POST can deliver a SAML response; a binding stored before that rule is offered as HTTP-POST.
    acsBinding: saml.acsUrl && samlAcsBindings.includes(saml.acsUrl.binding) ? saml.acsUrl.binding : SAML_BINDING_POST,
    nameIdFormat: saml.nameIdFormat,
    attributeMapping: Object.entries(saml.attributeMapping).map(([claim, attribute]) => ({ claim, attribute })),
    encryptAssertion: saml.encryption?.encryptAssertion ?? false,
    encryptThenSign: saml.encryption?.encryptThenSign ?? false,
    certificate: saml.encryption?.certificate ?? '',
  };
}

const entityIdSchema = samlApplicationPatchSchema.shape.entityId.unwrap().unwrap();
const [claimSchema, attributeSchema] = [samlAttributeMappingSchema.keyType, samlAttributeMappingSchema.valueType];

/**
 * The SAML settings' rules, all from the shared schema: entity ID length, an http(s) ACS URL, attribute names, and
 * spec §5's encryption rule (when assertions are encrypted, encryptThenSign and a certificate are required).
 */
export function samlFormSchema(messages: RuleMessages) {
  return z
    .object({
      name: applicationNameSchema,
      description: applicationDescriptionSchema,
      entityId: z.string(),
      acsUrl: z.string(),
      acsBinding: z.enum(samlBindings),
      nameIdFormat: z.enum(samlNameIdFormats),
      attributeMapping: z.array(z.object({ claim: z.string(), attribute: z.string() })),
      encryptAssertion: z.boolean(),
      encryptThenSign: z.boolean(),
      certificate: z.string(),
    })
    .superRefine((values, ctx) => {
      if (values.entityId.trim() && !entityIdSchema.safeParse(values.entityId).success) {
        ctx.addIssue({
          code: 'custom',
          message: messages.tooLong('entityId', entityIdSchema.maxLength ?? 0),
          path: ['entityId'],
        });
      }
      const acs = webUrlProblem(values.acsUrl, messages);
      if (acs) ctx.addIssue({ code: 'custom', message: acs, path: ['acsUrl'] });
      const claims = new Set<string>();
      values.attributeMapping.forEach(({ claim, attribute }, index) => {
        const claimProblem = claimSchema.safeParse(claim.trim()).success
          ? claims.has(claim.trim()) && messages.duplicate()
          : claim.trim()
            ? messages.tooLong('attributeClaim', claimSchema.maxLength ?? 0)
            : messages.required('attributeClaim');
        claims.add(claim.trim());
        if (claimProblem)
          ctx.addIssue({ code: 'custom', message: claimProblem, path: ['attributeMapping', index, 'claim'] });
        if (!attributeSchema.safeParse(attribute.trim()).success) {
          const message = attribute.trim()
            ? messages.tooLong('attributeName', attributeSchema.maxLength ?? 0)
            : messages.required('attributeName');
          ctx.addIssue({ code: 'custom', message, path: ['attributeMapping', index, 'attribute'] });
        }
      });
      const encryption = samlEncryptionSchema.safeParse(toEncryption(values));
      const certificate = values.certificate.trim();
      // The API stores any text (as the reference); the form asks for the PEM certificate service providers give.
      const certificateRefused =
        (!encryption.success && encryption.error.issues.some((issue) => issue.path[0] === 'certificate')) ||
        (values.encryptAssertion && certificate !== '' && !pemCertificatePattern.test(certificate));
      if (certificateRefused) {
        const message = certificate ? messages.certificate() : messages.required('certificate');
        ctx.addIssue({ code: 'custom', message, path: ['certificate'] });
      }
    }, alwaysRefine);
}

function toEncryption(values: Pick<SamlFormValues, 'encryptAssertion' | 'encryptThenSign' | 'certificate'>) {
  if (!values.encryptAssertion) return { encryptAssertion: false };
  const certificate = values.certificate.trim();
  return {
    encryptAssertion: true,
    encryptThenSign: values.encryptThenSign,
    ...(certificate && { certificate }),
  };
}

/** The PATCH of the SAML settings: every SAML field whole, as the API replaces each one it is given. */
export function toSamlPatch(values: SamlFormValues): SamlApplicationPatch {
  const acsUrl = values.acsUrl.trim();
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    entityId: values.entityId.trim() || null,
    acsUrl: acsUrl ? { binding: values.acsBinding, url: acsUrl } : null,
    nameIdFormat: values.nameIdFormat,
    attributeMapping: Object.fromEntries(
      values.attributeMapping.map((row) => [row.claim.trim(), row.attribute.trim()]),
    ),
    encryption: values.encryptAssertion ? toEncryption(values) : null,
  };
}

/** API field paths of PATCH /saml-applications/{id} → the SAML form's paths. */
export function samlFormPath(apiPath: string): string | undefined {
  if (apiPath.startsWith('acsUrl')) return 'acsUrl';
  if (apiPath.startsWith('encryption.certificate')) return 'certificate';
  return ['name', 'description', 'entityId', 'nameIdFormat'].includes(apiPath) ? apiPath : undefined;
}
