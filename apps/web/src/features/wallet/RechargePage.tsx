// pages/recharge/recharge: the user's USDT deposit address on BEP20 or TRC20, as text (copy button)
// and QR code, with the minimum, the confirmations a credit waits for and the one-network warning.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from '../../lib/router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DEPOSIT_NETWORKS, parseMoney, type DepositNetwork, type RechargeItem } from '@lq/contracts';
import { Button } from '../../components/Button';
import { ApiError } from '../../lib/api';
import { copyText } from '../../lib/clipboard';
import { localeTag } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { invalidateWallet, useRechargeAddress, useRechargeList } from './api';
import { displayMoney } from '../../lib/money';
import '../../components/screens.css';
import './wallet.css';

/** The address as an SVG QR code (drawn in the browser: the address never leaves the page). */
function useQrCode(text: string | undefined) {
  return useQuery({
    queryKey: ['qr', text],
    enabled: text !== undefined,
    staleTime: Infinity,
    queryFn: async () => {
      const QRCode = await import('qrcode');
      const svg = await QRCode.toString(text!, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    },
  }).data;
}

export default function RechargePage() {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const [network, setNetwork] = useState<DepositNetwork>('BEP20');
  const address = useRechargeAddress(network);
  const qr = useQrCode(address.data?.address);
  // From a payment that found the balance short (pages/pay/pay): what is missing, said here.
  const location = useLocation();
  const needText = new URLSearchParams(location.search).get('need');
  const need = needText !== null && (parseMoney(needText) ?? 0n) > 0n ? needText : undefined;

  const copy = async () => {
    if (!address.data) return;
    const done = await copyText(address.data.address);
    showToast(done ? t('recharge.copied') : t('recharge.copyFailed'), done ? 'success' : 'error');
  };

  const closed = address.error instanceof ApiError && address.error.code === 'A0360' ? address.error.message : undefined;
  return (
    <div className="bt-page wl-page" data-testid="recharge-page">
      <section className="card wl-recharge" aria-labelledby="recharge-title">
        <h2 className="bt-h2" id="recharge-title">{t('recharge.title')}</h2>
        {need ? <p className="bt-notice" role="status" data-testid="recharge-need">{t('recharge.need', { amount: displayMoney(need) })}</p> : null}
        <Link className="btn btn-secondary wl-buy-link" to="/pages/buyusd/buyusd" data-testid="recharge-buy-card">{t('recharge.buyCard')}</Link>
        <div className="wl-formats" role="radiogroup" aria-label={t('recharge.network')}>
          {DEPOSIT_NETWORKS.map((n) => (
            <button key={n} type="button" role="radio" aria-checked={network === n} className={`btn ${network === n ? 'btn-primary' : 'btn-secondary'}`} onClick={() => setNetwork(n)} data-testid={`recharge-network-${n}`}>
              {t(`recharge.networkName.${n}`)}
            </button>
          ))}
        </div>
        {address.isPending ? (
          <div className="spinner" aria-label={tc('common.loading')} />
        ) : closed ? (
          <div className="bt-empty" data-testid="recharge-closed"><p>{closed}</p></div>
        ) : address.isError ? (
          <div className="bt-empty"><p>{address.error instanceof ApiError ? address.error.message : tc('common.loadFailed')}</p><Button onClick={() => void address.refetch()}>{tc('common.retry')}</Button></div>
        ) : (
          <>
            <div className="wl-qr">
              {qr ? <img src={qr} width={200} height={200} alt={t('recharge.qr', { network: address.data.network })} data-testid="recharge-qr" /> : <div className="spinner" aria-label={tc('common.loading')} />}
            </div>
            <div className="field">
              <span id="recharge-address-label">{t('recharge.address', { network: address.data.network })}</span>
              {/* The whole address, wrapped: a trader compares it character by character. */}
              <code className="wl-address" aria-labelledby="recharge-address-label" data-testid="recharge-address">{address.data.address}</code>
            </div>
            <Button block onClick={() => void copy()} data-testid="recharge-copy">{t('recharge.copy')}</Button>
            <p className="wl-warning" role="note" data-testid="recharge-warning">{t('recharge.warning', { network: t(`recharge.networkName.${address.data.network}`) })}</p>
            <ul className="wl-facts">
              <li data-testid="recharge-minimum">{t('recharge.minimum', { amount: address.data.minimum.replace(/\.?0+$/, '') })}</li>
              <li data-testid="recharge-confirmations">{t('recharge.confirmations', { blocks: address.data.confirmations })}</li>
            </ul>
          </>
        )}
      </section>
      {address.data ? <Deposits network={network} /> : null}
    </div>
  );
}

function Deposits({ network }: { network: DepositNetwork }) {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const list = useRechargeList(network, true);
  const locale = useAppStore((s) => s.locale);
  const time = new Intl.DateTimeFormat(localeTag(locale), { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  // A deposit just credited: the wallet's figures change too.
  const credited = list.data?.list.filter((d) => d.state === 'credited').length ?? 0;
  const seenCredited = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (seenCredited.current !== undefined && credited !== seenCredited.current) void invalidateWallet(queryClient);
    seenCredited.current = credited;
  }, [credited, queryClient]);
  const stateText = (d: RechargeItem) =>
    d.state === 'pending' ? t('recharge.state.pending', { done: d.confirmations, needed: d.confirmationsNeeded }) : t(`recharge.state.${d.state}`);
  return (
    <section aria-labelledby="recharge-history-title">
      <h2 className="bt-h2" id="recharge-history-title">{t('recharge.history')}</h2>
      {list.isPending ? (
        <div className="spinner" aria-label={tc('common.loading')} />
      ) : list.isError ? (
        <div className="bt-empty"><p>{tc('common.loadFailed')}</p><Button onClick={() => void list.refetch()}>{tc('common.retry')}</Button></div>
      ) : list.data.list.length === 0 ? (
        <div className="bt-empty" data-testid="recharge-empty"><p>{t('recharge.empty')}</p></div>
      ) : (
        <ul className="wl-records">
          {list.data.list.map((d) => (
            <li key={d.id} className="wl-record" data-testid="recharge-row" data-state={d.state}>
              <div className="wl-record-main">
                <span className="wl-record-type num" data-testid="recharge-amount">{displayMoney(d.amount)} USDT</span>
                <span className={`badge ${d.state === 'credited' ? 'muted' : 'warn'}`} data-testid="recharge-state">{stateText(d)}</span>
              </div>
              <span className="bt-sub num">{time.format(d.time)}</span>
              {d.state === 'pending' ? (
                <progress className="wl-progress" max={d.confirmationsNeeded} value={d.confirmations} aria-label={stateText(d)} />
              ) : null}
              <p className="wl-memo num" title={d.txHash}>{t('recharge.tx')}: {d.txHash}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
