import { SignJWT, jwtVerify, errors } from 'jose';

export interface AccessClaims {
  /** A user id (console tokens) or a device id (agent tokens). */
  subject: number;
  /** The subject's token_version when issued: bumping it revokes the token. */
  tokenVersion: number;
}

/** Console and agent tokens never open each other's routes: their audiences differ. */
export type Audience = 'palisade-console' | 'palisade-agent';

const ISSUER = 'palisade';

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly expireMinutes: number,
  ) {
    this.key = new TextEncoder().encode(secret);
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
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience,
        algorithms: ['HS256'],
      });
      const subject = Number(payload.sub);
      const tokenVersion = payload['ver'];
      if (!Number.isInteger(subject) || typeof tokenVersion !== 'number') return undefined;
      return { subject, tokenVersion };
    } catch (error) {
      if (error instanceof errors.JOSEError) return undefined;
      throw error;
    }
  }
}
