// The one place the web app imports the strategy schemas: `@lq/strategies/schemas` is the zod-only
// entry shared with the server (docs/architecture.md: web → contracts, strategies/schemas), so
// the create-order forms check exactly what the server checks. eslint.config.js still lists the
// whole strategies package as forbidden for web; this entry is the documented exception.
// eslint-disable-next-line no-restricted-imports, import-x/no-restricted-paths -- zod-only entry, see above
export { INTERVALS, strategyParamSchemas } from '@lq/strategies/schemas';
