// Every ccxt error class lands in the VenueError class that says what to do.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AccountSuspended,
  ArgumentsRequired,
  BadRequest,
  BadResponse,
  BadSymbol,
  DDoSProtection,
  ExchangeError,
  ExchangeNotAvailable,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  NetworkError,
  NotSupported,
  OnMaintenance,
  OperationFailed,
  OperationRejected,
  PermissionDenied,
  AuthenticationError,
  RateLimitExceeded,
  RequestTimeout,
} from 'ccxt';
import { CcxtVenue, venueCodeOf, type VenueAction } from '../src/index';

const v = new CcxtVenue({ venue: 'binanceusdm', apiKey: 'k', secret: 's', origin: 'http://127.0.0.1:9' });

// The venue translates ccxt's errors once ccxt is loaded (by its first call out, here by open()).
beforeAll(() => v.open());

describe('translate', () => {
  const cases: [Error, VenueAction, VenueAction][] = [
    // error, action for a read, action for an order call
    [new RateLimitExceeded('binanceusdm {"code":-1003,"msg":"Too many requests"}'), 'retry', 'retry'],
    [new DDoSProtection('binanceusdm 429 Too Many Requests'), 'retry', 'retry'],
    [new InvalidNonce('binanceusdm {"code":-1021,"msg":"Timestamp"}'), 'retry', 'retry'],
    [new RequestTimeout('timed out'), 'retry', 'resolve'],
    [new NetworkError('socket hang up'), 'retry', 'resolve'],
    [new ExchangeNotAvailable('502'), 'retry', 'resolve'],
    [new OnMaintenance('50001'), 'retry', 'resolve'],
    [new OperationFailed('binanceusdm {"code":-1001,"msg":"Internal error"}'), 'retry', 'resolve'],
    [new BadResponse('not json'), 'retry', 'resolve'],
    [new InsufficientFunds('binanceusdm {"code":-2019,"msg":"Margin is insufficient."}'), 'reject', 'reject'],
    [new InvalidOrder('binanceusdm {"code":-4164,"msg":"notional"}'), 'reject', 'reject'],
    [new BadRequest('binanceusdm {"code":-4014,"msg":"tick"}'), 'reject', 'reject'],
    [new OperationRejected('binanceusdm {"code":-4059,"msg":"No need"}'), 'reject', 'reject'],
    [new AuthenticationError('binanceusdm {"code":-2015,"msg":"Invalid API-key"}'), 'stop', 'stop'],
    [new PermissionDenied('okx {"code":"50110","msg":"ip"}'), 'stop', 'stop'],
    [new AccountSuspended('suspended'), 'stop', 'stop'],
    [new BadSymbol('okx {"code":"51001"}'), 'fault', 'fault'],
    [new NotSupported('no'), 'fault', 'fault'],
    [new ArgumentsRequired('symbol'), 'fault', 'fault'],
    [new ExchangeError('binanceusdm {"code":-9999,"msg":"?"}'), 'fault', 'fault'],
    [new TypeError('bug'), 'fault', 'fault'],
  ];
  it.each(cases)('%s', (e, read, write) => {
    expect(v.translate(e, 'read').action).toBe(read);
    expect(v.translate(e, 'write', 'lq1').action).toBe(write);
  });

  it('keeps the venue code and the ccxt class', () => {
    const err = v.translate(new InsufficientFunds('binanceusdm {"code":-2019,"msg":"Margin is insufficient."}'), 'write', 'lq1');
    expect(err).toMatchObject({ venueCode: '-2019', source: 'InsufficientFunds', reason: 'insufficientFunds' });
    expect(venueCodeOf(new InvalidOrder('okx {"code":"1","msg":"","data":[{"sCode":"51016","sMsg":"dup"}]}'))).toBe('51016');
    expect(venueCodeOf(new ExchangeError('okx {"code":"51169","msg":"x","data":[]}'))).toBe('51169');
    expect(v.translate(new ExchangeError('okx {"code":"51169","msg":"x","data":[]}'), 'write').action).toBe('reject');
  });
});
