import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { webAuthnAuthenticationResponseSchema, webAuthnRegistrationResponseSchema } from '@gatehouse/schemas';
import { type CBORType, encodeCBOR } from '@levischuck/tiny-cbor';
import type { z } from 'zod';

/**
 * A software WebAuthn authenticator, and the browser around it, for tests (docs/areas/passkeys.md): an EC P-256 key
 * pair (ES256) made with node:crypto, attestation format `none`, the authenticator data and the COSE key encoded
 * with CBOR (@levischuck/tiny-cbor, the library @simplewebauthn/server itself decodes them with). Its answers have the shape
 * the sign-in script posts in a form's `credential` field (auth/sign-in-script.ts) and the 'me' API takes
 * (`webAuthn*ResponseSchema`). Every check the server makes can be failed on purpose: the origin and RP ID, the
 * signature counter, the user-verified flag; `clone()` copies the key like a cloned authenticator would, and `last*`
 * keeps the previous answers for replays. It answers for its one credential whatever `allowCredentials` or
 * `excludeCredentials` say: a browser would not send such an answer, an attacker would, and the server must refuse it.
 */

export type RegistrationAnswer = z.output<typeof webAuthnRegistrationResponseSchema>;
export type AuthenticationAnswer = z.output<typeof webAuthnAuthenticationResponseSchema>;

/** `PublicKeyCredentialCreationOptionsJSON`, as the server's options say it (what the page's `data-options` holds). */
export type CreationOptionsJSON = {
  challenge: string;
  rp: { id?: string; name?: string };
  user: { id: string; name?: string; displayName?: string };
  excludeCredentials?: { id: string }[];
};

/** `PublicKeyCredentialRequestOptionsJSON`. */
export type RequestOptionsJSON = {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
  userVerification?: string;
};

/** What one answer does differently from an honest browser and authenticator. */
export type AnswerOverrides = {
  /** The origin the client data says (the browser's page); default the authenticator's origin. */
  origin?: string;
  /** The RP ID whose hash the authenticator data carries; default the options' RP ID. */
  rpId?: string;
  /** The signature counter signed (and kept); default the next one (0 at registration, unless set at construction). */
  counter?: number;
  /** The UV flag (a PIN or biometric unlocked the key); default true. */
  userVerified?: boolean;
  /** The UP flag; default true. */
  userPresent?: boolean;
  /** The client data's `type`; default `webauthn.create` / `webauthn.get`. */
  type?: string;
  /** Another challenge than the options' (base64url). */
  challenge?: string;
};

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

export type SoftAuthenticatorOptions = {
  /** The origin of the pages the browser is on (PUBLIC_URL's origin). */
  origin: string;
  /** A synced passkey (BE and BS set: `multiDevice`, backed up), as a platform keychain makes; default bound to one device. */
  backedUp?: boolean;
  /** The signature counter before the first answer; 0 (a passkey that does not count) by default. */
  counter?: number;
  /** The authenticator model's AAGUID (16 bytes); zeros by default, as `none` attestation usually says. */
  aaguid?: Uint8Array;
  transports?: string[];
  attachment?: 'platform' | 'cross-platform';
};

export class SoftAuthenticator {
  readonly credentialId: Buffer;
  readonly origin: string;
  readonly backedUp: boolean;
  readonly aaguid: Uint8Array;
  readonly transports: string[];
  readonly attachment: 'platform' | 'cross-platform';
  /** The signature counter the authenticator is at (the last one it signed). */
  counter: number;
  /** The user handle of the registration (`user.id` of its options), given back with every assertion. */
  userHandle: string | undefined;
  lastRegistration: RegistrationAnswer | undefined;
  lastAssertion: AuthenticationAnswer | undefined;
  readonly #privateKey: KeyObject;
  readonly #publicKey: KeyObject;

  constructor(options: SoftAuthenticatorOptions, key?: { id: Buffer; privateKey: KeyObject; publicKey: KeyObject }) {
    this.origin = options.origin;
    this.backedUp = options.backedUp ?? false;
    this.counter = options.counter ?? 0;
    this.aaguid = options.aaguid ?? new Uint8Array(16);
    this.transports = options.transports ?? ['internal', 'hybrid'];
    this.attachment = options.attachment ?? 'platform';
    if (key) {
      this.credentialId = key.id;
      this.#privateKey = key.privateKey;
      this.#publicKey = key.publicKey;
    } else {
      this.credentialId = randomBytes(32);
      const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      this.#privateKey = pair.privateKey;
      this.#publicKey = pair.publicKey;
    }
  }

  /** The credential ID as the server stores and lists it (base64url). */
  get id(): string {
    return b64url(this.credentialId);
  }

  /** Another authenticator holding the same key and credential, with its counter where this one's is now. */
  clone(): SoftAuthenticator {
    const copy = new SoftAuthenticator(
      {
        origin: this.origin,
        backedUp: this.backedUp,
        counter: this.counter,
        aaguid: this.aaguid,
        transports: this.transports,
        attachment: this.attachment,
      },
      { id: this.credentialId, privateKey: this.#privateKey, publicKey: this.#publicKey },
    );
    copy.userHandle = this.userHandle;
    return copy;
  }

  /** The COSE_Key of the public key: EC2 (kty 2), ES256 (alg -7), P-256 (crv 1), x and y. */
  coseKey(): Uint8Array {
    const jwk = this.#publicKey.export({ format: 'jwk' });
    const key = new Map<number, CBORType>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
    return encodeCBOR(key);
  }

  /** rpIdHash(32) | flags | signCount(4, big-endian) | [aaguid(16) | credIdLen(2) | credId | COSE_Key]. */
  #authenticatorData(rpId: string, counter: number, overrides: AnswerOverrides, attested: boolean): Buffer {
    let flags = 0;
    if (overrides.userPresent ?? true) flags |= FLAG_UP;
    if (overrides.userVerified ?? true) flags |= FLAG_UV;
    if (this.backedUp) flags |= FLAG_BE | FLAG_BS;
    if (attested) flags |= FLAG_AT;
    const signCount = Buffer.alloc(4);
    signCount.writeUInt32BE(counter);
    const parts: Uint8Array[] = [sha256(rpId), Uint8Array.of(flags), signCount];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(this.aaguid, length, this.credentialId, this.coseKey());
    }
    return Buffer.concat(parts);
  }

  #clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** `navigator.credentials.create()`: a new credential for the options' RP and user, attestation `none`. */
  register(options: CreationOptionsJSON, overrides: AnswerOverrides = {}): RegistrationAnswer {
    const rpId = overrides.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const counter = overrides.counter ?? this.counter;
    this.counter = counter;
    this.userHandle = options.user.id;
    const authData = this.#authenticatorData(rpId, counter, overrides, true);
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientData = this.#clientData(
      overrides.type ?? 'webauthn.create',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.origin,
    );
    const answer: RegistrationAnswer = {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(attestationObject),
        transports: this.transports,
      },
      authenticatorAttachment: this.attachment,
      clientExtensionResults: {},
    };
    this.lastRegistration = answer;
    return answer;
  }

  /** `navigator.credentials.get()`: a signature (ECDSA, DER) over authData || SHA-256(clientDataJSON). */
  authenticate(options: RequestOptionsJSON, overrides: AnswerOverrides = {}): AuthenticationAnswer {
    const rpId = overrides.rpId ?? options.rpId ?? new URL(this.origin).hostname;
    const counter = overrides.counter ?? this.counter + 1;
    this.counter = counter;
    const authData = this.#authenticatorData(rpId, counter, overrides, false);
    const clientData = this.#clientData(
      overrides.type ?? 'webauthn.get',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? this.origin,
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.#privateKey);
    const answer: AuthenticationAnswer = {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      authenticatorAttachment: this.attachment,
      clientExtensionResults: {},
    };
    this.lastAssertion = answer;
    return answer;
  }
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** A page's passkey form, as the sign-in script reads it: `data-passkey`, its action, and its options or their URL. */
export type PasskeyForm = {
  mode: 'get' | 'create';
  action: string;
  options: Record<string, unknown> | undefined;
  optionsUrl: string | undefined;
};

/** The passkey forms of a sign-in page (`form[data-passkey]`), in page order. */
export function passkeyFormsOf(html: string): PasskeyForm[] {
  const forms: PasskeyForm[] = [];
  for (const [tag = ''] of html.matchAll(/<form\b[^>]*\bdata-passkey="[^"]*"[^>]*>/g)) {
    const attribute = (name: string) => {
      const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
      return value === undefined ? undefined : unescapeHtml(value);
    };
    const options = attribute('data-options');
    forms.push({
      mode: attribute('data-passkey') === 'create' ? 'create' : 'get',
      action: attribute('action') ?? '',
      options: options ? (JSON.parse(options) as Record<string, unknown>) : undefined,
      optionsUrl: attribute('data-options-url'),
    });
  }
  return forms;
}
