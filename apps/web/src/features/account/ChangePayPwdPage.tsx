import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../lib/router';
import { Spinner } from '../../components/Views';
import { PayPwdForm, usePayPwdMode } from './ChangePayPwdDialog';

/** Route pages/changePwd/pay/changePayPwd: the dialog's form as a page. */
export default function ChangePayPwdPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mode = usePayPwdMode();
  if (!mode) return <Spinner label={t('common.loading')} />;
  return (
    <div className="stack">
      <h2 style={{ margin: 0, fontSize: 20, textAlign: 'center' }}>{mode === 'change' ? t('account.changePayPwd') : t('account.setPayPwd')}</h2>
      <PayPwdForm mode={mode} onDone={() => navigate(-1)} />
    </div>
  );
}
