import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@lq/contracts';
import { IconChevron, IconGlobe } from '../../components/icons';
import { Sheet } from '../../components/Sheet';
import { useAppStore } from '../../lib/store';
import { changeLocale, LOCALE_NAMES } from './changeLocale';

function LanguageSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const current = useAppStore((s) => s.locale);
  const pick = (locale: Locale) => {
    onClose();
    if (locale !== current) void changeLocale(locale);
  };
  return (
    <Sheet title={t('language.choose')} onClose={onClose} testId="language-sheet">
      <div role="radiogroup" aria-label={t('language.choose')} style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
        {LOCALES.map((locale) => (
          <button key={locale} type="button" role="radio" className="option" aria-checked={locale === current} lang={locale === 'in_ID' ? 'id' : locale} onClick={() => pick(locale)} data-testid={`language-option-${locale}`}>
            {LOCALE_NAMES[locale]}
          </button>
        ))}
      </div>
    </Sheet>
  );
}

/** Language picker with all 7 locales: a chip in the top bar, a row on the mine page. */
export function LanguagePicker({ variant = 'chip' }: { variant?: 'chip' | 'row' }) {
  const { t } = useTranslation();
  const locale = useAppStore((s) => s.locale);
  const [open, setOpen] = useState(false);
  const sheet = open ? <LanguageSheet onClose={() => setOpen(false)} /> : null;
  if (variant === 'row') {
    return (
      <li>
        <button type="button" className="list-row" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="language-picker">
          {t('account.language')}
          <span className="value" data-testid="current-language">{LOCALE_NAMES[locale]}</span>
          <IconChevron className="chev" />
        </button>
        {sheet}
      </li>
    );
  }
  return (
    <>
      <button type="button" className="chip" onClick={() => setOpen(true)} aria-haspopup="dialog" aria-label={`${t('account.language')}: ${LOCALE_NAMES[locale]}`} data-testid="language-picker">
        <IconGlobe width={18} height={18} />
        <span data-testid="current-language">{LOCALE_NAMES[locale]}</span>
      </button>
      {sheet}
    </>
  );
}
