export * from './binance';
export * from './candles';
export * from './server';
export * from './okx';
