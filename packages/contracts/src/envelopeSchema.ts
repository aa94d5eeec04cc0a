import { z } from 'zod';

/** zod schema of an envelope around `data` (used for OpenAPI and for typed clients). */
export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.string(), msg: z.string(), data });

/** Error responses: `data` is null, or for validation errors the offending field. */
export const errorEnvelope = z.object({
  code: z.string(),
  msg: z.string(),
  data: z.union([z.null(), z.object({ field: z.string().optional() })]),
});
