import type { FastifyPluginAsync } from 'fastify';
import { CuratorStatusSchema, type CuratorStatus } from '../../../contract/auth.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createTokenStore, missingCuratorScopes } from '../../services/tokens/token-store.ts';
import { CURATOR_SCOPES } from '../../threads/settings.ts';

export interface CuratorRoutesOptions {
  db: Database;
  tokenKey: Buffer;
  config: Pick<Config, 'curation' | 'adminUsernames'>;
}

/** Admins see the curation account: who it is, which permissions it granted, what is missing. */
const curatorRoutes: FastifyPluginAsync<CuratorRoutesOptions> = async (app, { db, tokenKey, config }) => {
  const tokens = createTokenStore({ db, tokenKey });

  const status = { config: { access: 'admin' as const }, schema: { response: { 200: CuratorStatusSchema } } };
  app.get('/api/admin/curator', status, async (): Promise<CuratorStatus> => {
    const account = await tokens.curatorStatus(config.curation, config.adminUsernames);
    const expected = config.curation.curatorUsername;
    if (!account) {
      return {
        connected: false,
        username: null,
        expected_username: expected,
        granted: [],
        missing: missingCuratorScopes([]),
        reconnect_needed: false,
      };
    }
    return {
      connected: true,
      username: account.user.threadsUsername,
      expected_username: expected,
      granted: CURATOR_SCOPES.filter((scope) => account.scopes.includes(scope)),
      missing: account.missing,
      reconnect_needed: account.user.reconnectNeeded,
    };
  });
};

export default curatorRoutes;
