export * from './envelope';
export * from './errors';
export * from './locales';
export * from './constants';
export * from './normalize';
export * from './dataSource';
export * from './user';
export * from './messages';
