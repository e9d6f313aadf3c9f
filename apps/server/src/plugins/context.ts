import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Mailer } from '../lib/mailer.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { TokenService } from '../lib/tokens.js';

/** What every module may use, decorated on the Fastify instance as `app.ctx`. */
export interface AppContext {
  config: Config;
  db: Database;
  tokens: TokenService;
  /** Seals secrets stored in the database (rule sources' codes and headers). */
  secrets: SecretBox;
  mailer: Mailer;
  /** The agent version this server serves (its release manifest's); null without a build. */
  agentVersion: () => Promise<string | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
