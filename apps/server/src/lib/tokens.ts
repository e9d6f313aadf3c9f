import { createSecretKey, type KeyObject } from 'node:crypto';
import { SignJWT, jwtVerify, errors } from 'jose';
import { LRUCache } from 'lru-cache';

export interface AccessClaims {
  /** A user id (console tokens) or a device id (agent tokens). */
  subject: number;
  /** The subject's token_version when issued: bumping it revokes the token. */
  tokenVersion: number;
}

/** Console and agent tokens never open each other's routes: their audiences differ. */
export type Audience = 'palisade-console' | 'palisade-agent';

const ISSUER = 'palisade';
/** Verified tokens remembered (a fleet presents the same agent token every heartbeat). */
const VERIFIED_CACHE_SIZE = 250_000;

export class TokenService {
  private readonly key: KeyObject;
  /**
   * Claims of tokens already verified, until they expire. Safe to key by the whole token: the
   * same string carries the same signature. Revocation is not decided here but by the caller's
   * token_version check, which still runs on every request.
   */
  private readonly verified = new LRUCache<string, AccessClaims>({ max: VERIFIED_CACHE_SIZE });

  constructor(
    secret: string,
    private readonly expireMinutes: number,
  ) {
    // A key object made once: given raw bytes, jose would import the key on every verify.
    this.key = createSecretKey(new TextEncoder().encode(secret));
  }

  get expiresInSeconds(): number {
    return this.expireMinutes * 60;
  }

  async issue(claims: AccessClaims, audience: Audience = 'palisade-console'): Promise<string> {
    return new SignJWT({ ver: claims.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.subject))
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${this.expireMinutes}m`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token for that audience; undefined for anything else. */
  async verify(
    token: string,
    audience: Audience = 'palisade-console',
  ): Promise<AccessClaims | undefined> {
    const cacheKey = `${audience} ${token}`;
    const known = this.verified.get(cacheKey);
    if (known) return known;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience,
        algorithms: ['HS256'],
      });
      const subject = Number(payload.sub);
      const tokenVersion = payload['ver'];
      if (!Number.isInteger(subject) || typeof tokenVersion !== 'number') return undefined;
      const claims = { subject, tokenVersion };
      const ttl = typeof payload.exp === 'number' ? payload.exp * 1000 - Date.now() : 0;
      if (ttl > 0) this.verified.set(cacheKey, claims, { ttl });
      return claims;
    } catch (error) {
      if (error instanceof errors.JOSEError) return undefined;
      throw error;
    }
  }
}
