// Small pieces of the calculator screens: number field, market switch, instrument picker,
// result rows and the formula box.
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalcInstrument, CalcMarket } from './calc';
import '../../components/screens.css';

export function NumField({ name, label, value, onChange, error, hint, suffix }: { name: string; label: string; value: string; onChange: (v: string) => void; error?: string; hint?: string; suffix?: ReactNode }) {
  const id = useId();
  const described = [error ? `${id}-err` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-row">
        <input
          id={id}
          name={name}
          className="input num"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          data-testid={`calc-${name}`}
        />
        {suffix ? <span className="tl-suffix">{suffix}</span> : null}
      </div>
      {hint ? <p id={`${id}-hint`} className="field-hint">{hint}</p> : null}
      {error ? <p id={`${id}-err`} className="field-error" role="alert" data-testid={`calc-${name}-error`}>{error}</p> : null}
    </div>
  );
}

export function Segment<T extends string>({ label, value, options, onChange, testId }: { label: string; value: T; options: { value: T; text: string }[]; onChange: (v: T) => void; testId: string }) {
  return (
    <div className="field">
      <span className="bt-label">{label}</span>
      <div className="bt-segment" role="radiogroup" aria-label={label}>
        {options.map((o) => (
          <button key={o.value} type="button" role="radio" aria-checked={o.value === value} className="bt-segment-item" onClick={() => onChange(o.value)} data-testid={`${testId}-${o.value}`}>
            {o.text}
          </button>
        ))}
      </div>
    </div>
  );
}

export function MarketSwitch({ market, onChange }: { market: CalcMarket; onChange: (m: CalcMarket) => void }) {
  const { t } = useTranslation('tools');
  return (
    <Segment
      label={t('market')}
      value={market}
      options={[
        { value: 'forex', text: t('forex') },
        { value: 'crypto', text: t('crypto') },
      ]}
      onChange={onChange}
      testId="calc-market"
    />
  );
}

export function InstrumentSelect({ instruments, value, onChange }: { instruments: CalcInstrument[]; value: string; onChange: (symbol: string) => void }) {
  const { t } = useTranslation('tools');
  const id = useId();
  const current = instruments.find((i) => i.symbol === value);
  return (
    <div className="field">
      <label htmlFor={id}>{t('instrument')}</label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)} data-testid="calc-symbol">
        {instruments.map((i) => (
          <option key={i.symbol} value={i.symbol}>{i.symbol}</option>
        ))}
      </select>
      {current ? (
        <p className="field-hint">
          {current.market === 'forex'
            ? t('lotHint', { size: current.contractSize.toLocaleString('en-US'), min: current.minQty, step: current.qtyStep })
            : t('contractHint', { size: current.contractSize, base: current.symbol.replace(/USDT?$/, ''), min: current.minQty, step: current.qtyStep })}
        </p>
      ) : null}
    </div>
  );
}

export function ResultRow({ label, value, testId, tone, strong }: { label: string; value: ReactNode; testId: string; tone?: 'warn'; strong?: boolean }) {
  return (
    <div className={`tl-row${strong ? ' tl-row-strong' : ''}`} data-testid={testId}>
      <dt>{label}</dt>
      <dd className={`num${tone === 'warn' ? ' tl-warn' : ''}`}>{value}</dd>
    </div>
  );
}

export function Formula({ title, lines }: { title: string; lines: string[] }) {
  return (
    <section className="card bt-card" aria-label={title} data-testid="calc-formula">
      <h2 className="bt-h2">{title}</h2>
      <ul className="tl-formula">
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </section>
  );
}
