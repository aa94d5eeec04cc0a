// pages/wallet/export/export: request a CSV or XLSX file of the wallet records for a date range;
// the list shows exporting → exported (download, until when it is kept) or export failed.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { WalletExportFormat, WalletExportItem } from '@lq/contracts';
import { Button } from '../../components/Button';
import { ApiError } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { localeTag } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { PATHS, requestExport, useExports } from './api';
import '../../components/screens.css';
import './wallet.css';

function useFormats() {
  const locale = useAppStore((s) => s.locale);
  const tag = localeTag(locale);
  const date = new Intl.DateTimeFormat(tag, { year: 'numeric', month: '2-digit', day: '2-digit' });
  const dateTime = new Intl.DateTimeFormat(tag, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  return { date: (ms: number) => date.format(ms), dateTime: (ms: number) => dateTime.format(ms) };
}

/** The file through an authenticated request, saved by the browser. */
const download = (item: WalletExportItem) => downloadFile(PATHS.exportFile(item.id), `wallet-records-${item.id}.${item.format}`);

export default function ExportPage() {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const exports = useExports();
  const fmt = useFormats();
  const [format, setFormat] = useState<WalletExportFormat>('xlsx');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [rangeError, setRangeError] = useState<string | undefined>();

  const submit = async () => {
    if (from && to && from > to) {
      setRangeError(t('exportRangeError'));
      return;
    }
    setRangeError(undefined);
    setBusy(true);
    try {
      await requestExport({ format, ...(from ? { from } : {}), ...(to ? { to } : {}) });
      showToast(t('exportRequested'), 'success');
      await queryClient.invalidateQueries({ queryKey: ['wallet', 'exports'] });
    } catch {
      // the client showed the server's message
    } finally {
      setBusy(false);
    }
  };

  const save = async (item: WalletExportItem) => {
    try {
      await download(item);
    } catch (e) {
      showToast(e instanceof ApiError ? e.message : tc('common.loadFailed'), 'error');
    }
  };

  return (
    <div className="bt-page wl-page" data-testid="export-page">
      <section className="card wl-export-form" aria-labelledby="export-form-title">
        <h2 className="bt-h2" id="export-form-title">{t('exportNew')}</h2>
        <div className="wl-formats" role="radiogroup" aria-label={t('exportFormat')}>
          {(['xlsx', 'csv'] as const).map((f) => (
            <button key={f} type="button" role="radio" aria-checked={format === f} className={`btn ${format === f ? 'btn-primary' : 'btn-secondary'}`} onClick={() => setFormat(f)} data-testid={`export-format-${f}`}>
              {t(`format.${f}`)}
            </button>
          ))}
        </div>
        <div className="bt-range">
          <label className="field">
            <span>{t('exportFrom')}</span>
            <input className="input" type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} aria-invalid={rangeError ? true : undefined} data-testid="export-from" />
          </label>
          <label className="field">
            <span>{t('exportTo')}</span>
            <input className="input" type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} data-testid="export-to" />
          </label>
        </div>
        {rangeError ? <p className="field-error" role="alert" data-testid="export-range-error">{rangeError}</p> : <p className="bt-sub">{t('exportHint')}</p>}
        <Button block busy={busy} onClick={() => void submit()} data-testid="export-submit">{t('exportSubmit')}</Button>
      </section>

      <section aria-labelledby="export-list-title">
        <h2 className="bt-h2" id="export-list-title">{t('exportList')}</h2>
        {exports.isPending ? (
          <div className="spinner" aria-label={tc('common.loading')} />
        ) : exports.isError ? (
          <div className="bt-empty"><p>{tc('common.loadFailed')}</p><Button onClick={() => void exports.refetch()}>{tc('common.retry')}</Button></div>
        ) : exports.data.list.length === 0 ? (
          <div className="bt-empty" data-testid="exports-empty"><p>{t('exportEmpty')}</p></div>
        ) : (
          <ul className="wl-records">
            {exports.data.list.map((item) => (
              <li key={item.id} className="wl-record" data-testid="export-row" data-id={item.id} data-status={item.status}>
                <div className="wl-record-main">
                  <span className="wl-record-type">{t(`format.${item.format}`)}</span>
                  <span className={`badge ${item.status === 'failed' ? 'warn' : 'muted'}`} data-testid="export-status">{t(`exportStatus.${item.status}`)}</span>
                </div>
                {item.status === 'exported' ? (
                  <Button variant="secondary" onClick={() => void save(item)} data-testid="export-download">{t('download')}</Button>
                ) : item.status === 'exporting' ? (
                  <span className="spinner wl-spinner" aria-label={t('exportStatus.exporting')} />
                ) : <span />}
                <span className="bt-sub num">{item.from || item.to ? `${item.from ? fmt.date(Date.parse(item.from)) : '…'} – ${item.to ? fmt.date(Date.parse(item.to)) : '…'}` : t('exportAllTime')}</span>
                <span className="bt-sub num">{fmt.dateTime(item.createdAt)}</span>
                {item.status === 'exported' ? (
                  <p className="wl-memo" data-testid="export-info">{t('exportRows', { rows: item.rows ?? 0 })} · {t('exportKeptUntil', { date: fmt.dateTime(item.expiresAt) })}</p>
                ) : item.status === 'failed' ? (
                  <p className="wl-memo" data-testid="export-error">{t('exportFailed')}</p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
