// The one place the web app imports the strategy schemas: `@lq/strategies/schemas` is the zod-only
// entry shared with the server (docs/architecture.md: web → contracts, strategies/schemas), so
// the create-order forms check exactly what the server checks (eslint allows only this entry).
export { INTERVALS, strategyParamSchemas } from '@lq/strategies/schemas';
