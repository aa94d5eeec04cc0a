// The Security page under Mine (issue 52 item 10): the security lock's state, two-step verification
// (a QR code to scan, the ten recovery codes shown once, turning it off), the signed-in devices with
// "end", the passkeys, the withdrawal address book (the wallet feature's, composed by app/) and the
// anti-phishing phrase. Actions that change protections ask for the step-up: the two-step code, or
// a SECURITY e-mail code when two-step is off.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ANTI_PHISHING_PHRASE_MAX,
  type SecurityInfo,
  type SessionInfo,
  type TwoFactorEnableResult,
  type TwoFactorSetupResult,
} from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import {
  isStepUpField,
  stepUpBody,
  StepUpField,
  useTwoFactorOn,
  type StepUpProof,
} from '../../components/StepUpField';
import { StepUpSheet } from '../../components/StepUpSheet';
import { TextField } from '../../components/TextField';
import { ApiError, errorField } from '../../lib/api';
import { useNow } from '../../lib/clock';
import { PASSKEYS_QUERY_KEY } from '../../lib/passkey';
import { api } from '../../lib/session';
import { appStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { GuestPrompt } from './GuestPrompt';
import { Passkeys } from './Passkeys';
import { useUserInfo } from './useUserInfo';
import { formatDateTime } from '../../lib/format';

const SECURITY_KEY = ['user', 'security'] as const;
const SESSIONS_KEY = ['user', 'sessions'] as const;

/** A browser and system in a few words, from a User-Agent. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return '—';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : undefined;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : undefined;
  return browser || system ? [browser, system].filter(Boolean).join(' · ') : userAgent.slice(0, 40);
}

function setTwoFactorInStore(on: boolean) {
  const user = appStore.getState().user;
  if (user) appStore.getState().setUser({ ...user, twoFactorEnabled: on });
}

export default function SecurityPage({ addressBook }: { addressBook?: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useUserInfo();
  const security = useQuery({
    queryKey: SECURITY_KEY,
    queryFn: () => api.get<SecurityInfo>('user/api/security'),
    enabled: !!user,
  });
  if (!user) return <GuestPrompt />;
  const info = security.data;
  return (
    <div
      className="stack"
      style={{ maxWidth: 560, margin: '0 auto', width: '100%' }}
      data-testid="security-page"
    >
      <LockState info={info} />
      <h2 className="section-title">{t('security.twoFactorTitle')}</h2>
      {info ? (
        <TwoFactor on={info.twoFactorEnabled} />
      ) : (
        <div className="card" style={{ height: 96 }} aria-busy="true" />
      )}
      <h2 className="section-title">{t('security.passkeysTitle')}</h2>
      {info ? <Passkeys twoFactorOn={info.twoFactorEnabled} /> : null}
      <h2 className="section-title">{t('security.sessionsTitle')}</h2>
      <Sessions />
      {addressBook ? (
        <>
          <h2 className="section-title">{t('security.addressesTitle')}</h2>
          {addressBook}
        </>
      ) : null}
      <h2 className="section-title">{t('security.phraseTitle')}</h2>
      {info ? (
        <AntiPhishing key={info.antiPhishingPhrase ?? ''} phrase={info.antiPhishingPhrase} />
      ) : null}
    </div>
  );
}

function LockState({ info }: { info: SecurityInfo | undefined }) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  if (!info) return null;
  const locked = info.withdrawLockedUntil && Date.parse(info.withdrawLockedUntil) > now;
  return (
    <section
      className={`card${locked ? ' card-warn' : ''}`}
      data-testid="security-lock"
      data-locked={locked ? 'true' : 'false'}
    >
      <strong>{t('security.lockTitle')}</strong>
      <p className="field-hint" style={{ margin: '6px 0 0' }}>
        {locked
          ? t('security.lockOn', { at: formatDateTime(info.withdrawLockedUntil!, i18n.language) })
          : t('security.lockOff')}
      </p>
    </section>
  );
}

// ---------------------------------------------------------------- two-step

function TwoFactor({ on }: { on: boolean }) {
  const { t } = useTranslation();
  const [enrolling, setEnrolling] = useState(false);
  const [disabling, setDisabling] = useState(false);
  return (
    <section className="card stack" data-testid="security-2fa" data-on={on ? 'true' : 'false'}>
      <p style={{ margin: 0 }}>{on ? t('security.twoFactorOn') : t('security.twoFactorOff')}</p>
      {on ? (
        <Button
          variant="secondary"
          onClick={() => setDisabling(true)}
          data-testid="security-2fa-off"
        >
          {t('security.turnOff')}
        </Button>
      ) : (
        <Button onClick={() => setEnrolling(true)} data-testid="security-2fa-on">
          {t('security.turnOn')}
        </Button>
      )}
      {enrolling ? <EnrolSheet onClose={() => setEnrolling(false)} /> : null}
      {disabling ? <DisableSheet onClose={() => setDisabling(false)} /> : null}
    </section>
  );
}

/** Setup → scan (or type the key) → a code and the password → the recovery codes, once. */
function EnrolSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<TwoFactorSetupResult & { qr: string }>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  const [recovery, setRecovery] = useState<string[]>();

  // One setup per opening of the sheet (a new one replaces the secret being scanned).
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const s = await api.post<TwoFactorSetupResult>('user/api/2fa/setup', {});
        const QRCode = await import('qrcode');
        const qr = await QRCode.toString(s.otpauthUrl, {
          type: 'svg',
          margin: 1,
          errorCorrectionLevel: 'M',
        });
        if (live) setSetup({ ...s, qr });
      } catch {
        if (live) close.current();
      }
    })();
    return () => {
      live = false;
    };
  }, []);

  const enable = async () => {
    const found: typeof errors = {};
    if (!/^\d{6}$/.test(code.trim())) found.code = t('security.codeSix');
    if (!password) found.password = t('validation.required');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const result = await api.post<TwoFactorEnableResult>(
        'user/api/2fa/enable',
        { code: code.trim(), password },
        { silent: true },
      );
      setRecovery(result.recoveryCodes);
      setTwoFactorInStore(true);
      void queryClient.invalidateQueries({ queryKey: SECURITY_KEY });
      void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: ['user-info'] });
    } catch (e) {
      const field = errorField(e);
      if (e instanceof ApiError && field === 'password') setErrors({ password: e.message });
      else if (e instanceof ApiError && (field === 'code' || !field))
        setErrors({ code: e.message });
      else showToast((e as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  if (recovery) {
    return (
      <Sheet title={t('security.recoveryTitle')} onClose={onClose} testId="security-recovery-sheet">
        <div className="stack">
          <p className="field-hint">{t('security.recoveryHint')}</p>
          <ol
            className="num"
            data-testid="security-recovery-codes"
            style={{ columns: 2, margin: 0, paddingLeft: 24 }}
          >
            {recovery.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ol>
          <Button
            variant="secondary"
            onClick={() => {
              void navigator.clipboard?.writeText(recovery.join('\n')).then(
                () => showToast(t('security.copied'), 'success'),
                () => undefined,
              );
            }}
            data-testid="security-recovery-copy"
          >
            {t('security.copy')}
          </Button>
          <Button block onClick={onClose} data-testid="security-recovery-done">
            {t('security.saved')}
          </Button>
        </div>
      </Sheet>
    );
  }
  return (
    <Sheet title={t('security.enableTitle')} onClose={onClose} testId="security-enrol-sheet">
      {!setup ? (
        <div className="center-view" style={{ minHeight: 160 }}>
          <div className="spinner" role="status" aria-label={t('common.loading')} />
        </div>
      ) : (
        <form
          className="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void enable();
          }}
        >
          <p className="field-hint">{t('security.scanHint')}</p>
          <div
            className="qr"
            style={{
              width: 184,
              height: 184,
              margin: '0 auto',
              background: '#fff',
              padding: 8,
              borderRadius: 8,
            }}
            data-testid="security-qr"
            aria-label={t('security.qrLabel')}
            role="img"
            dangerouslySetInnerHTML={{ __html: setup.qr }}
          />
          <div className="field">
            <span>{t('security.secretLabel')}</span>
            <code
              className="num"
              style={{ wordBreak: 'break-all', userSelect: 'all' }}
              data-testid="security-secret"
            >
              {setup.secret}
            </code>
          </div>
          <TextField
            label={t('security.appCode')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            name="enableCode"
            data-testid="security-enable-code"
            error={errors.code}
          />
          <TextField
            label={t('security.password')}
            type="password"
            revealable
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            name="enablePassword"
            data-testid="security-enable-password"
            error={errors.password}
          />
          <p className="field-hint">{t('security.enableNote')}</p>
          <Button type="submit" block busy={busy} data-testid="security-enable-submit">
            {t('security.enable')}
          </Button>
        </form>
      )}
    </Sheet>
  );
}

function DisableSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const found: typeof errors = {};
    if (!code.trim()) found.code = t('validation.required');
    if (!password) found.password = t('validation.required');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await api.post('user/api/2fa/disable', { code: code.trim(), password }, { silent: true });
      setTwoFactorInStore(false);
      void queryClient.invalidateQueries({ queryKey: SECURITY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['user-info'] });
      // Turning two-step off removes the passkeys too.
      void queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY });
      showToast(t('security.disabled'), 'success');
      onClose();
    } catch (e) {
      const field = errorField(e);
      if (e instanceof ApiError && field === 'password') setErrors({ password: e.message });
      else if (e instanceof ApiError) setErrors({ code: e.message });
      else showToast((e as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Sheet title={t('security.disableTitle')} onClose={onClose} testId="security-disable-sheet">
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p className="field-hint">{t('security.disableHint')}</p>
        <TextField
          label={t('auth.twoFactorCode')}
          placeholder={t('auth.twoFactorPlaceholder')}
          autoComplete="one-time-code"
          spellCheck={false}
          maxLength={20}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          name="disableCode"
          data-testid="security-disable-code"
          error={errors.code}
        />
        <TextField
          label={t('security.password')}
          type="password"
          revealable
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          name="disablePassword"
          data-testid="security-disable-password"
          error={errors.password}
        />
        <Button
          type="submit"
          block
          variant="danger"
          busy={busy}
          data-testid="security-disable-submit"
        >
          {t('security.turnOff')}
        </Button>
      </form>
    </Sheet>
  );
}

// ---------------------------------------------------------------- sessions

function Sessions() {
  const { t, i18n } = useTranslation();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => api.get<SessionInfo[]>('user/api/sessions'),
  });
  // Which to end: one session, or every other one ('others').
  const [ending, setEnding] = useState<SessionInfo | 'others'>();
  const list = sessions.data ?? [];
  const others = list.filter((s) => !s.current);
  return (
    <section className="card stack" data-testid="security-sessions">
      <ul className="list" style={{ margin: 0 }}>
        {list.map((s) => (
          <li
            key={s.id}
            className="list-row"
            data-testid="security-session"
            data-current={s.current ? 'true' : 'false'}
            style={{ gap: 12 }}
          >
            <span style={{ minWidth: 0, display: 'flex', flexDirection: 'column' }}>
              <strong
                style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {deviceName(s.userAgent)}
              </strong>
              <small className="field-hint" style={{ margin: 0 }}>
                {s.ip ?? '—'} ·{' '}
                {t('security.lastSeen', { at: formatDateTime(s.lastSeenAt, i18n.language) })}
              </small>
            </span>
            {s.current ? (
              <span
                className="badge"
                style={{ whiteSpace: 'nowrap', flexShrink: 0 }}
                data-testid="security-session-current"
              >
                {t('security.thisDevice')}
              </span>
            ) : (
              <button
                type="button"
                className="link-btn"
                style={{ flexShrink: 0 }}
                onClick={() => setEnding(s)}
                data-testid="security-session-end"
              >
                {t('security.end')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {sessions.isSuccess && others.length === 0 ? (
        <p className="field-hint" data-testid="security-sessions-alone">
          {t('security.noOthers')}
        </p>
      ) : null}
      {others.length > 1 ? (
        <Button
          variant="secondary"
          onClick={() => setEnding('others')}
          data-testid="security-sessions-end-others"
        >
          {t('security.endOthers')}
        </Button>
      ) : null}
      {ending ? <EndSheet target={ending} onClose={() => setEnding(undefined)} /> : null}
    </section>
  );
}

function EndSheet({ target, onClose }: { target: SessionInfo | 'others'; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <StepUpSheet
      title={target === 'others' ? t('security.endOthers') : t('security.endTitle')}
      hint={
        target === 'others'
          ? t('security.endOthersHint')
          : t('security.endHint', { device: deviceName(target.userAgent), ip: target.ip ?? '—' })
      }
      codeType="SECURITY"
      submitLabel={t('security.end')}
      proofRequired={t('security.proofRequired')}
      danger
      testId="security-end"
      onClose={onClose}
      onConfirm={async (proof) => {
        if (target === 'others') {
          const { ended } = await api.post<{ ended: number }>(
            'user/api/sessions/revoke-others',
            proof,
            { silent: true },
          );
          showToast(t('security.endedMany', { count: ended }), 'success');
        } else {
          await api.post('user/api/sessions/revoke', { id: target.id, ...proof }, { silent: true });
          showToast(t('security.ended'), 'success');
        }
        await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
        onClose();
      }}
      onRefused={() => void queryClient.invalidateQueries({ queryKey: SESSIONS_KEY })}
    />
  );
}

// ---------------------------------------------------------------- anti-phishing phrase

function AntiPhishing({ phrase }: { phrase: string | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const twoFactorOn = useTwoFactorOn();
  const [value, setValue] = useState(phrase ?? '');
  const [proof, setProof] = useState('');
  const [errors, setErrors] = useState<{ phrase?: string; proof?: string }>({});
  const [busy, setBusy] = useState(false);
  /** `signed`: the step-up proved by a passkey instead of the typed code. */
  const submit = async (signed?: StepUpProof) => {
    if (!signed && !proof.trim()) {
      setErrors({ proof: t('security.proofRequired') });
      return;
    }
    setBusy(true);
    try {
      await api.post(
        'user/api/security/anti-phishing',
        { phrase: value.trim(), ...(signed ?? stepUpBody(twoFactorOn, proof)) },
        { silent: true },
      );
      setProof('');
      setErrors({});
      showToast(t('security.phraseSaved'), 'success');
      await queryClient.invalidateQueries({ queryKey: SECURITY_KEY });
    } catch (e) {
      const field = errorField(e);
      if (e instanceof ApiError && field === 'phrase') setErrors({ phrase: e.message });
      else if (e instanceof ApiError && isStepUpField(field)) setErrors({ proof: e.message });
      else showToast((e as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="card form"
      noValidate
      data-testid="security-phrase-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="field-hint" style={{ marginTop: 0 }}>
        {t('security.phraseHint')}
      </p>
      <TextField
        label={t('security.phraseLabel')}
        placeholder={t('security.phraseNone')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        maxLength={ANTI_PHISHING_PHRASE_MAX}
        name="phrase"
        autoComplete="off"
        data-testid="security-phrase"
        error={errors.phrase}
      />
      <StepUpField
        codeType="SECURITY"
        testId="security-phrase-proof"
        name="phraseProof"
        value={proof}
        onChange={(e) => setProof(e.target.value)}
        error={errors.proof}
        onPasskey={submit}
      />
      <Button type="submit" block busy={busy} data-testid="security-phrase-save">
        {t('security.phraseSave')}
      </Button>
    </form>
  );
}
