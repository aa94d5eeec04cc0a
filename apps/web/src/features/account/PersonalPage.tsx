import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { graphemes, nickname, NICKNAME_MAX, type UserInfo } from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { api } from '../../lib/session';
import { appStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { fieldError } from '../../lib/validation';
import { GuestPrompt } from './GuestPrompt';
import { useUserInfo } from './useUserInfo';

const nicknameForm = z.object({ nickname });
type NicknameForm = z.input<typeof nicknameForm>;

function NicknameEditor({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, control } = useForm<NicknameForm>({ resolver: zodResolver(nicknameForm), defaultValues: { nickname: user.nickname ?? '' } });
  // Counted as the user sees characters (an emoji family is one), the same count as the server's.
  const typed = useWatch({ control, name: 'nickname' });
  const count = graphemes((typed ?? '').trim()).length;
  const onSubmit = handleSubmit(async ({ nickname: value }) => {
    setBusy(true);
    try {
      await api.post('user/api/nickname', { nickname: value.trim() });
      const current = appStore.getState().user;
      if (current) appStore.getState().setUser({ ...current, nickname: value.trim() });
      // The cached `user/api/info` answer would otherwise put the old nickname back on the next screen.
      queryClient.setQueriesData<UserInfo>({ queryKey: ['user-info'] }, (old) => (old ? { ...old, nickname: value.trim() } : old));
      void queryClient.invalidateQueries({ queryKey: ['user-info'] });
      showToast(t('account.nicknameSaved'), 'success');
    } catch {
      // message already shown
    } finally {
      setBusy(false);
    }
  });
  return (
    <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="nickname-form">
      <TextField
        label={t('account.nickname')}
        placeholder={t('account.nicknamePlaceholder')}
        autoComplete="nickname"
        data-testid="nickname-input"
        hint={`${count}/${NICKNAME_MAX}`}
        error={fieldError(t, formState.errors.nickname, 'validation.nicknameTooLong', { max: NICKNAME_MAX })}
        {...register('nickname')}
      />
      <Button type="submit" block busy={busy} data-testid="nickname-save">
        {t('common.save')}
      </Button>
    </form>
  );
}

/** `notifications`: where notifications go (the notice feature's settings, composed by app/). */
export default function PersonalPage({ notifications }: { notifications?: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useUserInfo();
  if (!user) return <GuestPrompt />;
  return (
    <div className="stack" style={{ maxWidth: 420, margin: '0 auto', width: '100%' }}>
      <ul className="list">
        <li className="list-row">
          {t('account.email')}
          <span className="value" data-testid="personal-mail">{user.mail}</span>
        </li>
        <li className="list-row">
          {t('account.uid')}
          <span className="value num">{user.userCode}</span>
        </li>
      </ul>
      <NicknameEditor key={user.nickname ?? ''} user={user} />
      {notifications}
    </div>
  );
}
