export * from './errors';
export * from './client-order-id';
export * from './ccxt';
export * from './venue-broker';
export * from './mt5/index';
export * from './simulated';
export * from './funding';
