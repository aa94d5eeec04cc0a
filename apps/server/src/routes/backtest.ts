import type { FastifyInstance } from 'fastify';
import type { AccountDeps } from '../services/accounts';

/** Backtests and parameter recommendations: `order/api/backtest/...`. */
export function backtestRoutes(_app: FastifyInstance, _deps: AccountDeps): void {}
