export * from './smaCross';
export * from './grid';
