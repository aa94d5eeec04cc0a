import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  AppError,
  ERRORS,
  errorEnvelope,
  errorMessageKey,
  isMessageKey,
  resolveLocale,
  SUCCESS_CODE,
  translate,
  type Envelope,
  type ErrorName,
  type Locale,
} from '@lq/contracts';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

/** OpenAPI responses every route shares: the error envelope for any 4xx and 5xx. */
export const errorResponses = { '4xx': errorEnvelope, '5xx': errorEnvelope };
/** OpenAPI security of a route that needs a session token. */
export const bearerAuth = [{ bearer: [] }];

/** Success envelope with the localized "success" message (or another catalog key). */
export function ok<T>(request: FastifyRequest, data: T, msgKey = 'common.success'): Envelope<T> {
  return { code: SUCCESS_CODE, msg: translate(request.locale, msgKey), data };
}

/** Thrown by our validator: carries the zod issues so the message can name the field. */
export class RequestValidationError extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super('request validation failed');
  }
}

/** A validation failure shaped like a request validation issue, so the message names the field. */
export function invalid(path: (string | number)[], message: string): RequestValidationError {
  return new RequestValidationError([{ code: 'custom', path, message, input: undefined } as unknown as z.core.$ZodIssue]);
}

/** C0 controls but tab, line feed and carriage return, and DEL: never meaningful in our fields. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** The path of the first string (or key) holding a control character, or null. */
export function controlCharacterPath(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = controlCharacterPath(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (CONTROL_CHARACTER.test(k)) return [...path, k.replace(new RegExp(CONTROL_CHARACTER.source, 'g'), '?')];
      const found = controlCharacterPath(v, [...path, k]);
      if (found) return found;
    }
  }
  return null;
}

/**
 * Refuses a body or query holding a control character (422 naming the field) before any schema
 * or database sees it: PostgreSQL refuses NUL in text, and no field of ours means one.
 */
export function refuseControlCharacters(request: FastifyRequest): void {
  for (const input of [request.query, request.body, request.params]) {
    const path = controlCharacterPath(input);
    if (path) throw invalid(path.length > 0 ? path : ['body'], 'validation.controlChar');
  }
}

/** Fastify validator compiler for zod schemas (strict bodies, transforms applied). */
export const zodValidatorCompiler =
  ({ schema }: { schema: z.ZodType }) =>
  (data: unknown) => {
    const result = schema.safeParse(data);
    return result.success
      ? { value: result.data }
      : { error: new RequestValidationError(result.error.issues) };
  };

function send(
  reply: FastifyReply,
  request: FastifyRequest,
  name: ErrorName,
  params: Record<string, string | number> = {},
  field?: string,
  status?: number,
) {
  const def = ERRORS[name];
  const body: Envelope<{ field: string } | null> = {
    code: def.code,
    msg: translate(request.locale, errorMessageKey(name), params),
    data: field !== undefined ? { field } : null,
  };
  return reply.status(status ?? def.status).send(body);
}

const valueAt = (root: unknown, pathParts: readonly PropertyKey[]): unknown =>
  pathParts.reduce<unknown>(
    (v, k) =>
      v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined,
    root,
  );

/** Turns the first zod issue into a catalog error with a localized message naming the field. */
function sendValidation(
  reply: FastifyReply,
  request: FastifyRequest,
  err: RequestValidationError,
  context: string | undefined,
) {
  const issue = err.issues[0];
  const input = context === 'querystring' ? request.query : request.body;
  const field =
    issue.path.length > 0
      ? issue.path.map(String).join('.')
      : context === 'querystring'
        ? 'query'
        : 'body';
  const locale = request.locale;
  if (issue.code === 'unrecognized_keys') {
    const unknown = issue.path.length > 0 ? `${field}.${issue.keys[0]}` : issue.keys[0];
    return send(reply, request, 'UNKNOWN_FIELD', { field: unknown }, unknown);
  }
  if (issue.message.startsWith('errors.')) {
    const name = issue.message.slice('errors.'.length) as ErrorName;
    if (name in ERRORS) return send(reply, request, name, {}, field);
  }
  let msg: string;
  if (issue.message.startsWith('validation.') && isMessageKey(issue.message)) {
    msg = translate(locale, issue.message, { field });
  } else {
    switch (issue.code) {
      case 'invalid_type':
        msg =
          valueAt(input, issue.path) === undefined
            ? translate(locale, 'validation.required', { field })
            : translate(locale, 'validation.invalidType', { field, expected: issue.expected });
        break;
      case 'too_big':
        msg = translate(
          locale,
          issue.origin === 'string' ? 'validation.tooLong' : 'validation.tooBig',
          { field, max: String(issue.maximum) },
        );
        break;
      case 'too_small':
        msg =
          issue.origin === 'string' && valueAt(input, issue.path) === ''
            ? translate(locale, 'validation.required', { field })
            : translate(
                locale,
                issue.origin === 'string' ? 'validation.tooShort' : 'validation.tooSmall',
                { field, min: String(issue.minimum) },
              );
        break;
      case 'invalid_value':
        msg = translate(locale, 'validation.invalidOption', {
          field,
          options: issue.values.map(String).join(', '),
        });
        break;
      case 'invalid_format':
        msg = translate(
          locale,
          issue.format === 'email' ? 'validation.invalidEmail' : 'validation.invalidFormat',
          { field },
        );
        break;
      default:
        msg = translate(locale, 'validation.invalidValue', { field });
    }
  }
  const def = ERRORS.VALIDATION_FAILED;
  return reply.status(def.status).send({ code: def.code, msg, data: { field } });
}

const FASTIFY_CODES: Record<string, ErrorName> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
};

/** Envelope for everything: errors of the catalog, localized, with honest HTTP statuses. */
export function installEnvelope(app: FastifyInstance) {
  app.decorateRequest('locale', 'zh-TW');
  app.addHook('onRequest', (request, _reply, done) => {
    const lang = request.headers.lang;
    request.locale = resolveLocale(Array.isArray(lang) ? lang[0] : lang);
    done();
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return send(reply, request, error.errorName, error.params, error.field);
    }
    if (error instanceof RequestValidationError) {
      return sendValidation(
        reply,
        request,
        error,
        (error as unknown as FastifyError).validationContext,
      );
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) return send(reply, request, mapped);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Any other client error Fastify raises (bad content length, prototype poisoning, …).
      return send(reply, request, 'BAD_REQUEST', {}, undefined, error.statusCode);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, request, 'INTERNAL');
  });

  app.setNotFoundHandler((request, reply) => send(reply, request, 'NOT_FOUND'));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a malformed header, headers over
 * the 16 KB limit): answered with the envelope too, in the default locale (the headers that would
 * name another could not be read), then the connection is closed.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const name: ErrorName = err.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'BAD_REQUEST';
  const def = ERRORS[name];
  const body = JSON.stringify({ code: def.code, msg: translate(resolveLocale(undefined), errorMessageKey(name)), data: null });
  socket.end(
    `HTTP/1.1 ${def.status} ${STATUS_CODES[def.status] ?? 'Bad Request'}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
