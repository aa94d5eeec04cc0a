import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  MT5_EA_MESSAGE_TYPES,
  MT5_RETCODES,
  MT5_SERVER_MESSAGE_TYPES,
  mt5EaMessageSchema,
  mt5ServerMessageSchema,
  parseEaMessage,
  parseServerMessage,
  retcodeClass,
} from '../src/mt5';
import { renderBridgeProtocolMqh } from '../src/mt5-mql';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const head = (type: string) => ({ v: 1, type, mid: 'm1', ts: 1_700_000_000_000 });
const result = { outcome: 'filled', retcode: 10009, order: '123', deal: '456', price: '1.08512', volume: '0.10', comment: null };

describe('MT5 bridge contracts', () => {
  it('mt5/BridgeProtocol.mqh is the generator output (run scripts/gen-mql-protocol.ts)', () => {
    const committed = readFileSync(path.join(root, 'mt5', 'BridgeProtocol.mqh'), 'utf8');
    expect(committed).toBe(renderBridgeProtocolMqh());
  });

  it('the .mqh names every message type and classifies every retcode', () => {
    const mqh = renderBridgeProtocolMqh();
    for (const t of [...MT5_EA_MESSAGE_TYPES, ...MT5_SERVER_MESSAGE_TYPES]) expect(mqh).toContain(`"${t}"`);
    for (const r of Object.values(MT5_RETCODES)) expect(mqh).toContain(`case ${r.code}/*`);
  });

  it('the union schemas know exactly the listed types', () => {
    expect(mt5EaMessageSchema.options.map((o) => o.shape.type.value).sort()).toEqual([...MT5_EA_MESSAGE_TYPES].sort());
    expect(mt5ServerMessageSchema.options.map((o) => o.shape.type.value).sort()).toEqual([...MT5_SERVER_MESSAGE_TYPES].sort());
  });

  it('parses valid frames both ways and refuses bad ones', () => {
    expect(parseEaMessage(JSON.stringify({ ...head('exec'), clientId: 'lqabc', ...result }))?.type).toBe('exec');
    expect(parseEaMessage(JSON.stringify({ ...head('ack'), clientId: 'lq-1_x', seq: 1, status: 'duplicate', reason: null, result }))?.type).toBe('ack');
    const intent = {
      ...head('intent'), clientId: 'lqabc', seq: 1, magic: '7700000000000001', action: 'deal', symbol: 'EURUSD.m', side: 'buy',
      orderType: 'market', volume: '0.10', price: null, sl: '1.07000', tp: null, deviationPts: 10, positionTicket: null, orderTicket: null, ttlMs: 10_000, expiry: null,
    };
    expect(parseServerMessage(JSON.stringify(intent))?.type).toBe('intent');
    // wrong direction, bad ids, numbers where strings are required, not JSON
    expect(parseEaMessage(JSON.stringify(intent))).toBeNull();
    expect(parseServerMessage(JSON.stringify({ ...intent, clientId: 'has space' }))).toBeNull();
    expect(parseServerMessage(JSON.stringify({ ...intent, volume: 0.1 }))).toBeNull();
    expect(parseServerMessage(JSON.stringify({ ...intent, clientId: 'x'.repeat(33) }))).toBeNull();
    expect(parseEaMessage(JSON.stringify({ ...head('exec'), v: 2, clientId: 'a', ...result }))).toBeNull();
    expect(parseEaMessage('{not json')).toBeNull();
  });

  it('classifies retcodes as the design table says; unknown codes are unknown', () => {
    expect(retcodeClass(10009)).toBe('ok');
    expect(retcodeClass(10004)).toBe('retry');
    expect(retcodeClass(10012)).toBe('unknown');
    expect(retcodeClass(10019)).toBe('final');
    expect(retcodeClass(99999)).toBe('unknown');
    expect(retcodeClass(null)).toBe('unknown');
  });
});
