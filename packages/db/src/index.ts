export * from './schema';
export * from './open';
export { queryPrepared, sqlOf } from './prepared';
export * from './results';
export * from './like';
export * from './scratch';
export * from './settings';
// One drizzle for the whole server: query helpers come from here, never from 'drizzle-orm' directly
// (npm may nest drizzle-orm under this package, where other workspaces cannot resolve it).
export { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte, max, ne, or, sql, type SQL } from 'drizzle-orm';
export { alias } from 'drizzle-orm/pg-core';
export * from './template';
