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

/** Where the time comes from: `Date` in the product, a hand-moved clock in tests. */
export interface Clock {
  now(): number;
}
/** Verified tokens remembered (a fleet presents the same agent token every heartbeat). */
const VERIFIED_CACHE_SIZE = 250_000;

export class TokenService {
  private readonly key: KeyObject;
  /**
   * Claims of tokens already verified, until they expire. Safe to key by the whole token: the
   * same string carries the same signature. Revocation is not decided here but by the caller's
   * token_version check, which still runs on every request.
   */
  private readonly verified: LRUCache<string, { claims: AccessClaims; expiresAt: number }>;

  constructor(
    secret: string,
    private readonly expireMinutes: number,
    private readonly clock: Clock = Date,
  ) {
    // A key object made once: given raw bytes, jose would import the key on every verify.
    this.key = createSecretKey(new TextEncoder().encode(secret));
    this.verified = new LRUCache({ max: VERIFIED_CACHE_SIZE, perf: clock });
  }

  get expiresInSeconds(): number {
    return this.expireMinutes * 60;
  }

  async issue(claims: AccessClaims, audience: Audience = 'palisade-console'): Promise<string> {
    const issuedAt = Math.floor(this.clock.now() / 1000);
    return new SignJWT({ ver: claims.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.subject))
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + Math.round(this.expiresInSeconds))
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token for that audience; undefined for anything else. */
  async verify(
    token: string,
    audience: Audience = 'palisade-console',
  ): Promise<AccessClaims | undefined> {
    const cacheKey = `${audience} ${token}`;
    const known = this.verified.get(cacheKey);
    // The cache's own expiry only evicts: it reads its clock at most once a millisecond.
    if (known && known.expiresAt > this.clock.now()) return known.claims;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience,
        algorithms: ['HS256'],
        currentDate: new Date(this.clock.now()),
      });
      const subject = Number(payload.sub);
      const tokenVersion = payload['ver'];
      if (!Number.isInteger(subject) || typeof tokenVersion !== 'number') return undefined;
      const claims = { subject, tokenVersion };
      const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
      const ttl = expiresAt - this.clock.now();
      if (ttl > 0) this.verified.set(cacheKey, { claims, expiresAt }, { ttl });
      return claims;
    } catch (error) {
      if (error instanceof errors.JOSEError) return undefined;
      throw error;
    }
  }
}
