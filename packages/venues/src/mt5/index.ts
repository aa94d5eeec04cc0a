export * from './link';
export * from './venue';
export * from './fake-ea';
