// One way for every console form: the contracts' zod schema checks it in the browser (the same
// rules the server applies), and an error the server answers is shown under the field it names.
import { useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { ZodType } from 'zod';
import type { ApiError} from '../../lib/api';
import { errorField } from '../../lib/api';
import { fieldError } from '../../lib/validation';

export function useConsoleForm<T extends FieldValues>(schema: ZodType, defaultValues: DefaultValues<T>, submit: (values: T) => Promise<void>) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const form = useForm<T>({ resolver: zodResolver(schema as never) as never, defaultValues });
  const onSubmit = form.handleSubmit(async (values) => {
    setBusy(true);
    try {
      await submit(values);
    } catch (e) {
      // The message is a toast already; the field it names shows it too.
      const field = errorField(e);
      if (field && field in defaultValues) form.setError(field as Path<T>, { type: 'server', message: (e as ApiError).message }, { shouldFocus: true });
    } finally {
      setBusy(false);
    }
  });
  /** The error of a field in the operator's language. */
  const errorOf = (name: Path<T>) => {
    const error = form.getFieldState(name, form.formState).error;
    return fieldError(t, error, 'validation.invalid');
  };
  return { ...form, busy, onSubmit: (e: React.FormEvent) => void onSubmit(e), errorOf };
}
