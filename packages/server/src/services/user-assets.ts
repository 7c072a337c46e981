import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extensionByMimeType } from '@gatehouse/schemas';

/**
 * Where uploaded files live. Local disk under DATA_DIR by default; an S3-compatible store can
 * implement the same methods.
 */
export interface AssetStorage {
  put(tenantId: string, name: string, bytes: Uint8Array): Promise<void>;
  get(tenantId: string, name: string): Promise<Uint8Array | undefined>;
  /** Removes every file of a tenant (its deletion). */
  removeTenant(tenantId: string): Promise<void>;
}

export class LocalAssetStorage implements AssetStorage {
  readonly #root: string;

  constructor(dataDir: string) {
    this.#root = join(dataDir, 'user-assets');
  }

  async put(tenantId: string, name: string, bytes: Uint8Array): Promise<void> {
    const directory = join(this.#root, tenantId);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    // Write then rename, so a reader never sees half a file.
    const partial = join(directory, `.${name}.partial`);
    await writeFile(partial, bytes, { mode: 0o600 });
    await rename(partial, join(directory, name));
  }

  async get(tenantId: string, name: string): Promise<Uint8Array | undefined> {
    try {
      return await readFile(join(this.#root, tenantId, name));
    } catch {
      return undefined;
    }
  }

  async removeTenant(tenantId: string): Promise<void> {
    // Tenant ids are [0-9a-z]; anything else could name a path outside the tenant's folder.
    if (!/^[0-9a-z]{1,21}$/.test(tenantId)) throw new Error(`not a tenant id: ${tenantId}`);
    await rm(join(this.#root, tenantId), { recursive: true, force: true });
  }
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

/**
 * The image type the bytes really are, from their signature, whatever the upload claimed: a
 * browser never gets to guess (served with nosniff and this type).
 */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('BM'))) return 'image/bmp';
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00])) return 'image/x-icon';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  // SVG is text: an optional BOM, XML declaration, comments and doctype, then the <svg element.
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096));
  const rest = head
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^>]*\?>/, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '')
    .replace(/^\s*<!DOCTYPE[^>]*>/i, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '');
  if (/^\s*<svg[\s>]/i.test(rest)) return 'image/svg+xml';
  return undefined;
}

/** The MIME type we serve for an extension we wrote. */
const mimeTypeByExtension: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
};

/** Stored names are random (unguessable) plus the sniffed type's extension. */
export const assetNamePattern = /^[\da-z]{24}\.(png|jpeg|gif|webp|bmp|ico|tiff|svg)$/;

export function newAssetName(mimeType: string): string {
  const extension = extensionByMimeType[mimeType];
  if (!extension) throw new Error(`no extension for ${mimeType}`);
  return `${randomBytes(12).toString('hex')}.${extension}`;
}

export function assetMimeType(name: string): string | undefined {
  return mimeTypeByExtension[name.split('.').pop() ?? ''];
}

/** The equivalence the allow-list needs: an ICO may be declared under either of its two names. */
export function isAllowedType(sniffed: string, allowed: readonly string[]): boolean {
  if (allowed.includes(sniffed)) return true;
  return sniffed === 'image/x-icon' && allowed.includes('image/vnd.microsoft.icon');
}
