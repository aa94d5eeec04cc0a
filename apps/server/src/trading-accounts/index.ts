// Trading accounts: a user's exchange API keys (Binance, OKX) and MT5 accounts, their encrypted
// secrets, and the venue a robot trades through.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { tradingAccountRoutes } from './routes';

export const tradingAccountsPlugin = fp(
  async (app) => {
    tradingAccountRoutes(app, platformDeps(app));
    return Promise.resolve();
  },
  { name: 'trading-accounts' },
);

export { ccxtVenueId, openVenue, readCredentials, venueOrigin, type TradingAccountCredentials } from './credentials';
export { SecretBox } from './secrets';
export { bridgeTokenEvents } from './service';
