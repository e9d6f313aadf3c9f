import { SignJWT, jwtVerify, errors } from 'jose';

export interface AccessClaims {
  userId: number;
  /** users.token_version when issued: a later password change revokes the token. */
  tokenVersion: number;
}

const ISSUER = 'palisade';
const AUDIENCE = 'palisade-console';

export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly expireMinutes: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(claims: AccessClaims): Promise<string> {
    return new SignJWT({ ver: claims.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.expireMinutes}m`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token; undefined for anything else. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      });
      const userId = Number(payload.sub);
      const tokenVersion = payload['ver'];
      if (!Number.isInteger(userId) || typeof tokenVersion !== 'number') return undefined;
      return { userId, tokenVersion };
    } catch (error) {
      if (error instanceof errors.JOSEError) return undefined;
      throw error;
    }
  }
}
