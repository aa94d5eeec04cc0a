import { useTranslation } from 'react-i18next';
import { useSiteInfo } from '../../lib/site';

export type AgreementDoc = 'privacy' | 'license' | 'autoSubscribe' | 'monthEquity';
const SECTIONS = [1, 2, 3, 4, 5] as const;

/** The four agreements; texts live in the lazily loaded `legal` namespace of every locale. */
export default function AgreementPage({ doc }: { doc: AgreementDoc }) {
  const { t } = useTranslation('legal');
  // The contact of the privacy policy is the operator's (SUPPORT_MAIL), never a made-up address.
  const site = useSiteInfo();
  const contact = site?.supportMail ?? t('contactFallback');
  return (
    <article className="prose" data-testid={`agreement-${doc}`}>
      <p style={{ color: 'var(--text-2)', fontSize: 13 }}>{t('updated')}</p>
      <p>{t(`${doc}.intro`)}</p>
      {SECTIONS.map((n) => (
        <section key={n}>
          <h2>{t(`${doc}.s${n}h`)}</h2>
          <p>{t(`${doc}.s${n}p`, { contact })}</p>
        </section>
      ))}
    </article>
  );
}
