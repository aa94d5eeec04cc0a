import { z } from 'zod';

/** The code every successful response carries (spec §8). */
export const SUCCESS_CODE = '00000';

/** Every response body, success or error: `{ code, msg, data }`. */
export interface Envelope<T = unknown> {
  code: string;
  msg: string;
  data: T;
}

export const isSuccess = (body: Pick<Envelope, 'code'>): boolean => body.code === SUCCESS_CODE;

/** zod schema of an envelope around `data` (used for OpenAPI and for typed clients). */
export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.string(), msg: z.string(), data });

/** Error responses: `data` is null, or for validation errors the offending field. */
export const errorEnvelope = z.object({
  code: z.string(),
  msg: z.string(),
  data: z.union([z.null(), z.object({ field: z.string().optional() })]),
});
