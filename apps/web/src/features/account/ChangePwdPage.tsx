import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { password } from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { api, logout } from '../../lib/session';
import { showToast } from '../../lib/toast';
import { fieldError } from '../../lib/validation';

const changeForm = z
  .object({ oldPassword: z.string().min(1).max(128), password, passwordAgain: z.string().max(128) })
  .refine((f) => f.password === f.passwordAgain, { error: 'errors.PASSWORDS_DIFFER', path: ['passwordAgain'] });
type ChangeForm = z.input<typeof changeForm>;

export default function ChangePwdPage() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const { register, handleSubmit, formState } = useForm<ChangeForm>({ resolver: zodResolver(changeForm), defaultValues: { oldPassword: '', password: '', passwordAgain: '' } });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (values) => {
    setBusy(true);
    try {
      await api.post('user/api/password/change', values);
      showToast(t('account.passwordChanged'), 'success');
      // Other sessions are revoked by a password change; log in again with the new one.
      await logout();
    } catch {
      // message already shown
    } finally {
      setBusy(false);
    }
  });
  return (
    <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="changepwd-form">
      <TextField label={t('account.oldPassword')} type="password" revealable autoComplete="current-password" data-testid="changepwd-old" error={fieldError(t, errors.oldPassword, 'validation.required')} {...register('oldPassword')} />
      <TextField label={t('account.newPassword')} placeholder={t('auth.passwordPlaceholder')} type="password" revealable autoComplete="new-password" data-testid="changepwd-new" error={fieldError(t, errors.password, 'validation.passwordWeak')} {...register('password')} />
      <TextField label={t('account.newPasswordAgain')} type="password" autoComplete="new-password" data-testid="changepwd-again" error={fieldError(t, errors.passwordAgain, 'validation.passwordsDiffer')} {...register('passwordAgain')} />
      <Button type="submit" block busy={busy} data-testid="changepwd-submit">
        {t('common.confirm')}
      </Button>
    </form>
  );
}
