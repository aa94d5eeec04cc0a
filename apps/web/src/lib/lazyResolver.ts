// A form resolver whose zod schema loads when it is first needed, not with the page. Login and
// register are first screens: they paint without zod (about 27 KB gzip) and fetch it when the
// user starts typing; a submit before that waits for it.
import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

export interface LazyResolver<T extends FieldValues> {
  resolver: Resolver<T>;
  /** Starts loading the schema (call on the form's first focus). */
  preload: () => void;
}

export function lazyZodResolver<T extends FieldValues>(loadSchema: () => Promise<ZodType>): LazyResolver<T> {
  let loaded: Promise<Resolver<T>> | null = null;
  const load = () =>
    (loaded ??= Promise.all([import('@hookform/resolvers/zod'), loadSchema()]).then(
      ([{ zodResolver }, schema]) => zodResolver(schema as never) as unknown as Resolver<T>,
      (error: unknown) => {
        loaded = null; // a failed chunk load is retried by the next attempt
        throw error;
      },
    ));
  return {
    resolver: async (values, context, options) => (await load())(values, context, options),
    preload: () => void load().catch(() => undefined),
  };
}
