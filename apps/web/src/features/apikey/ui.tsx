// Small pieces of the trading-account screens: tags, warnings, the one-time bridge token panel.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountBridge, AccountWarning } from '@lq/contracts';
import { Button } from '../../components/Button';
import { copyText } from '../../lib/clipboard';
import { useSiteInfo } from '../../lib/site';
import { showToast } from '../../lib/toast';
import '../../components/screens.css';

export function Warnings({ warnings, testId = 'account-warnings' }: { warnings: AccountWarning[]; testId?: string }) {
  const { t } = useTranslation('apikey');
  // Whitelisting is advised with the addresses themselves (EGRESS_IPS), or not at all.
  const ips = useSiteInfo()?.egressIps ?? [];
  if (warnings.length === 0) return null;
  const text = (w: AccountWarning) => (w === 'noIpRestriction' && ips.length > 0 ? t('warning.noIpRestrictionTo', { ips: ips.join(', ') }) : t(`warning.${w}`));
  return (
    <ul className="ak-warnings" data-testid={testId}>
      {warnings.map((w) => (
        <li key={w} data-warning={w}>{text(w)}</li>
      ))}
    </ul>
  );
}

export function BridgeTag({ bridge }: { bridge: AccountBridge }) {
  const { t } = useTranslation('apikey');
  const cls = bridge.status === 'online' ? 'ak-tag-online' : bridge.status === 'offline' ? 'ak-tag-offline' : '';
  return (
    <span className={`ak-tag ${cls}`} data-testid="bridge-status" data-status={bridge.status}>
      {t(`bridgeStatus.${bridge.status}`)}
    </span>
  );
}

/** The MT5 bridge token, shown once, with a copy button and the EA install steps. */
export function TokenPanel({ token }: { token: string }) {
  const { t } = useTranslation('apikey');
  const [copied, setCopied] = useState(false);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const copy = async () => {
    const ok = await copyText(token);
    setCopied(ok);
    showToast(t(ok ? 'token.copied' : 'token.copyFailed'), ok ? 'success' : 'error');
  };
  return (
    <section className="card ak-token" data-testid="bridge-token-panel" aria-labelledby="ak-token-title">
      <h2 id="ak-token-title" style={{ margin: 0, fontSize: 17 }}>{t('token.title')}</h2>
      <p className="ak-secure">{t('token.once')}</p>
      <code className="ak-token-value" data-testid="bridge-token">{token}</code>
      <Button variant={copied ? 'secondary' : 'primary'} onClick={() => void copy()} data-testid="bridge-token-copy">
        {copied ? t('token.copied') : t('token.copy')}
      </Button>
      <h3 style={{ margin: '8px 0 0', fontSize: 15 }}>{t('token.steps')}</h3>
      <ol className="ak-steps">
        <li>{t('token.step1')}</li>
        <li>{t('token.step2', { host: origin })}</li>
        <li>{t('token.step3')}</li>
        <li>{t('token.step4')}</li>
      </ol>
    </section>
  );
}
