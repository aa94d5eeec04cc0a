// The reason every console action carries (kept in the audit log; a rejection's is what the user reads).
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../components/TextField';

export function ReasonField({ label, ...props }: Omit<ComponentProps<typeof TextField>, 'label'> & { label?: string }) {
  const { t } = useTranslation('console');
  return <TextField label={label ?? t('reason')} maxLength={500} data-testid="action-reason" {...props} />;
}
