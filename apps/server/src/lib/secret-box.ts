import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/** A stored secret that no longer opens: SECRET_KEY changed since it was sealed. */
export class SecretUnreadable extends Error {}

/**
 * Seals small secrets (a rule source's secret code and request headers) for storage with
 * AES-256-GCM, under a key derived by HKDF-SHA256 from the server's SECRET_KEY for this one use.
 * Replicas share SECRET_KEY, so each opens what another sealed. A sealed value is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; `context` (e.g. the column) is bound as associated
 * data, so a value copied into another column does not open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = Buffer.from(
      hkdfSync('sha256', secretKey, 'palisade', 'palisade stored secrets v1', 32),
    );
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plain text, or SecretUnreadable when the value was sealed under another key. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined)
      throw new SecretUnreadable('not a sealed value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretUnreadable('the stored secret does not open with this SECRET_KEY');
    }
  }
}
