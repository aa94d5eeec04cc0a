// The MetaTrader 5 bridge: the WebSocket the Expert Advisor dials out to, and the hub of sessions.
export { bridgePlugin, type BridgeOptions } from './routes';
export { tokenHash, type BridgeHub } from './hub';
