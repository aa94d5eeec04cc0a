import type { FastifyInstance } from 'fastify';
import type { AccountDeps } from '../services/accounts';

/** Market data and reference calls (spec §7): tactics-selection, dict-type list, currency-list, contract info. */
export function marketRoutes(_app: FastifyInstance, _deps: AccountDeps): void {}
