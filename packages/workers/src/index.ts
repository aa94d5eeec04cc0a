export * from './load';
export * from './cache';
