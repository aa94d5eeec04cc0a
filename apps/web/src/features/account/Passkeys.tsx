// Passkeys on the Security page (issue 52 item 2): the list, "add a passkey" (a name and a fresh
// two-step code; the browser makes the key) and "remove" (a fresh code). A passkey is a second
// factor beside the authenticator app, so the section asks for two-step to be on first.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PASSKEY_NAME_MAX, PASSKEYS_MAX, type PasskeyItem } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { isStepUpField, StepUpField } from '../../components/StepUpField';
import { StepUpSheet } from '../../components/StepUpSheet';
import { TextField } from '../../components/TextField';
import { ApiError, errorField } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import {
  createPasskey,
  fetchPasskeys,
  PASSKEYS_QUERY_KEY,
  passkeyDismissed,
  passkeysSupported,
  type PublicKeyCredentialCreationOptionsJSON,
} from '../../lib/passkey';
import { api } from '../../lib/session';
import { showToast } from '../../lib/toast';

export function Passkeys({ twoFactorOn }: { twoFactorOn: boolean }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string) => formatDateTime(iso, i18n.language);
  const list = useQuery({
    queryKey: PASSKEYS_QUERY_KEY,
    queryFn: fetchPasskeys,
  });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeyItem>();
  const keys = list.data ?? [];
  const supported = passkeysSupported();
  return (
    <section className="card stack" data-testid="security-passkeys">
      <p className="field-hint" style={{ margin: 0 }}>
        {t('security.passkeysHint')}
      </p>
      {keys.length > 0 ? (
        <ul className="list" style={{ margin: 0 }}>
          {keys.map((k) => (
            <li key={k.id} className="list-row" data-testid="security-passkey" style={{ gap: 12 }}>
              <span style={{ minWidth: 0, display: 'flex', flexDirection: 'column' }}>
                <strong
                  style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                >
                  {k.name}
                </strong>
                <small className="field-hint" style={{ margin: 0 }}>
                  {t('security.passkeyAdded', { at: when(k.createdAt) })}
                  {' · '}
                  {k.lastUsedAt
                    ? t('security.passkeyUsed', { at: when(k.lastUsedAt) })
                    : t('security.passkeyNeverUsed')}
                </small>
              </span>
              <button
                type="button"
                className="link-btn"
                style={{ flexShrink: 0 }}
                onClick={() => setRemoving(k)}
                data-testid="security-passkey-remove"
              >
                {t('security.remove')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {!twoFactorOn ? (
        <p className="field-hint" data-testid="security-passkeys-need-2fa">
          {t('security.passkeysNeedTwoFactor')}
        </p>
      ) : !supported ? (
        <p className="field-hint" data-testid="security-passkeys-unsupported">
          {t('security.passkeysUnsupported')}
        </p>
      ) : keys.length < PASSKEYS_MAX ? (
        <Button
          variant="secondary"
          onClick={() => setAdding(true)}
          data-testid="security-passkey-add"
        >
          {t('security.passkeyAdd')}
        </Button>
      ) : null}
      {adding ? <AddSheet onClose={() => setAdding(false)} /> : null}
      {removing ? <RemoveSheet target={removing} onClose={() => setRemoving(undefined)} /> : null}
    </section>
  );
}

/**
 * A name and a fresh two-step code, then the browser's dialog. A refused code keeps the key the
 * browser made: the next try sends it again with the corrected code (its challenge still waits).
 */
function AddSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [proof, setProof] = useState('');
  const [made, setMade] = useState<unknown>();
  const [errors, setErrors] = useState<{ name?: string; proof?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const found: typeof errors = {};
    if (!name.trim()) found.name = t('validation.required');
    if (!proof.trim()) found.proof = t('security.proofRequired');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      let response = made;
      if (!response) {
        const options = await api.post<PublicKeyCredentialCreationOptionsJSON>(
          'user/api/passkeys/options',
          {},
          { silent: true },
        );
        try {
          response = await createPasskey(options);
        } catch (e) {
          if (passkeyDismissed(e)) return;
          if (e instanceof Error && e.name === 'InvalidStateError')
            return setErrors({ name: t('security.passkeyExists') });
          throw e;
        }
        setMade(response);
      }
      await api.post(
        'user/api/passkeys/add',
        { name: name.trim(), response, twoFactorCode: proof.trim() },
        { silent: true },
      );
      showToast(t('security.passkeyAddedToast'), 'success');
      await queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY });
      onClose();
    } catch (e) {
      const field = errorField(e);
      if (e instanceof ApiError && isStepUpField(field)) setErrors({ proof: e.message });
      else if (e instanceof ApiError && field === 'name') setErrors({ name: e.message });
      else {
        // The key or its challenge was refused: the next try makes a new one.
        setMade(undefined);
        showToast((e as Error).message, 'error');
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Sheet title={t('security.passkeyAdd')} onClose={onClose} testId="security-passkey-sheet">
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p className="field-hint">{t('security.passkeyAddHint')}</p>
        <TextField
          label={t('security.passkeyName')}
          placeholder={t('security.passkeyNamePlaceholder')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={PASSKEY_NAME_MAX}
          name="passkeyName"
          autoComplete="off"
          data-testid="security-passkey-name"
          error={errors.name}
        />
        <StepUpField
          codeType={null}
          testId="security-passkey-proof"
          name="passkeyProof"
          value={proof}
          onChange={(e) => setProof(e.target.value)}
          error={errors.proof}
        />
        <Button type="submit" block busy={busy} data-testid="security-passkey-submit">
          {t('security.passkeyCreate')}
        </Button>
      </form>
    </Sheet>
  );
}

function RemoveSheet({ target, onClose }: { target: PasskeyItem; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <StepUpSheet
      title={t('security.passkeyRemoveTitle')}
      hint={t('security.passkeyRemoveHint', { name: target.name })}
      codeType={null}
      submitLabel={t('security.remove')}
      proofRequired={t('security.proofRequired')}
      danger
      testId="security-passkey-remove"
      onClose={onClose}
      onConfirm={async (proof) => {
        await api.post('user/api/passkeys/remove', { id: target.id, ...proof }, { silent: true });
        showToast(t('security.passkeyRemoved'), 'success');
        await queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY });
        onClose();
      }}
      onRefused={() => void queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY })}
    />
  );
}
