// The forms a visitor may open first (login, register, reset: `/`, invite links, reset mails).
// They paint without a form library (react-hook-form, 12 KB gzip) and without zod (27 KB): the
// values stay in the inputs, and the form's zod schema loads on the form's first focus (a submit
// before that waits for it). Every other form uses react-hook-form.
import { useRef, useState, type FormEvent } from 'react';
import type { ZodType } from 'zod';

type Values = Record<string, string | boolean>;
/** One error per field, shaped as `lib/validation`'s `fieldError` reads it (`type`: zod's issue code, or `server`). */
export type FieldErrors<T> = Partial<Record<keyof T, { type: string; message: string }>>;

export interface FormRules {
  /** Starts loading the schema (the form's onFocus). */
  preload: () => void;
  load: () => Promise<ZodType>;
}

/** A schema loaded once, when first needed; a failed chunk load is retried by the next attempt. */
export function formRules(loadSchema: () => Promise<ZodType>): FormRules {
  let loaded: Promise<ZodType> | null = null;
  const load = () =>
    (loaded ??= loadSchema().catch((error: unknown) => {
      loaded = null;
      throw error;
    }));
  return { load, preload: () => void load().catch(() => undefined) };
}

export function useFirstScreenForm<T extends Values>(rules: FormRules, defaults: T) {
  // The form element (the page's `<form ref={attach}>`), read by the handlers only. A ref, not
  // state: a state setter as the ref re-rendered the page synchronously right after its first
  // commit, the longest task of the phone's first screen.
  const attach = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<T>(defaults);
  const [errors, setErrors] = useState<FieldErrors<T>>({});
  // As react-hook-form does: errors appear on submit, then follow each change.
  const [submitted, setSubmitted] = useState(false);
  const names = Object.keys(defaults) as (keyof T & string)[];

  /** The values as the inputs hold them now. */
  const read = (): T => {
    const read = { ...defaults };
    for (const name of names) {
      const input = attach.current?.elements.namedItem(name);
      if (input instanceof HTMLInputElement && input.type === 'checkbox') (read as Values)[name] = input.checked;
      else if (input instanceof HTMLInputElement || input instanceof HTMLSelectElement) (read as Values)[name] = input.value;
    }
    return read;
  };

  /** Every field's first error (all at once), or the parsed values. */
  const check = async (current: T): Promise<{ ok: true; data: T } | { ok: false; errors: FieldErrors<T> }> => {
    const result = await (await rules.load()).safeParseAsync(current);
    if (result.success) return { ok: true, data: result.data as T };
    const found: FieldErrors<T> = {};
    for (const issue of result.error.issues) {
      const name = String(issue.path[0]) as keyof T;
      found[name] ??= { type: issue.code, message: issue.message };
    }
    return { ok: false, errors: found };
  };

  const focus = (name: string) => {
    const input = attach.current?.elements.namedItem(name);
    if (input instanceof HTMLElement) input.focus();
  };

  const onChange = () => {
    const current = read();
    setValues(current);
    if (submitted) void check(current).then((r) => setErrors(r.ok ? {} : r.errors), () => undefined);
  };

  /** The form's onSubmit: validates everything, focuses the first field in error, else calls `send` with the parsed values. */
  const submit = (send: (data: T) => Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    void (async () => {
      const result = await check(read());
      if (!result.ok) {
        const { errors: found } = result;
        setErrors(found);
        const first = names.find((name) => found[name]);
        if (first) focus(first);
        return;
      }
      setErrors({});
      await send(result.data);
    })();
  };

  /** Checks one field (the send-code button's e-mail) and shows only its error; its value when valid. */
  const validValue = async <K extends keyof T & string>(name: K): Promise<T[K] | undefined> => {
    const current = read();
    const result = await check(current);
    const error = result.ok ? undefined : result.errors[name];
    setErrors((shown) => ({ ...shown, [name]: error }));
    return error ? undefined : current[name];
  };

  /** The server's refusal of one field, in the user's language, shown under it. */
  const setServerError = (name: keyof T & string, message: string) => {
    setErrors((shown) => ({ ...shown, [name]: { type: 'server', message } }));
    focus(name);
  };

  /** The props of the input named `name`: its starting value (or checked state); the value then lives in the input. */
  const field = (name: keyof T & string) =>
    typeof defaults[name] === 'boolean' ? { name, defaultChecked: defaults[name] } : { name, defaultValue: String(defaults[name]) };

  return { attach, onChange, submit, field, values, errors, validValue, setServerError };
}
