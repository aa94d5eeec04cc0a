// The business at a glance (GET console/api/dashboard), refreshed every 30 seconds.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import type { ConsoleDashboard } from '@lq/contracts';
import { ErrorView, Spinner } from '../../components/Views';
import { displayMoney } from '../../lib/money';
import { consoleApi } from './api';
import { useDateTime } from './ui';

export function DashboardPage() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const q = useQuery({ queryKey: ['console', 'dashboard'], queryFn: () => consoleApi.get<ConsoleDashboard>('dashboard'), refetchInterval: 30_000 });
  if (q.isPending) return <Spinner label={t('loading')} />;
  if (q.isError) return <ErrorView message={t('loadFailed')} onRetry={() => void q.refetch()} />;
  const d = q.data;
  const tiles: { key: string; value: string; sub?: string; to?: string }[] = [
    { key: 'users', value: String(d.users.total), sub: t('dashboard.usersToday', { n: d.users.today }), to: '/console/users' },
    { key: 'deposits', value: displayMoney(d.deposits.creditedToday), sub: t('dashboard.depositsPending', { n: d.deposits.pending }), to: '/console/deposits' },
    { key: 'withdrawals', value: String(d.withdrawals.waiting), sub: t('dashboard.withdrawalsAmount', { amount: displayMoney(d.withdrawals.waitingAmount) }), to: '/console/withdrawals' },
    { key: 'robots', value: String(d.robots.running) },
    { key: 'jobs', value: String(d.jobs.failedToday) },
    { key: 'revenue', value: displayMoney(d.revenue.today) },
    // Which users: `npm run ops fills:suspect`, and each user's panel lists theirs.
    { key: 'fills', value: String(d.fills.suspect), sub: t('dashboard.fillsUsers', { n: d.fills.users }) },
  ];
  const warn = (key: string) => (key === 'jobs' && d.jobs.failedToday > 0) || (key === 'fills' && d.fills.suspect > 0);
  return (
    <>
      <p className="cs-hint" data-testid="dashboard-day">{t('dashboard.day', { start: when(d.dayStart), timezone: d.timezone })}</p>
      <div className="cs-tiles">
        {tiles.map((tile) => (
          <div key={tile.key} className={`cs-card cs-tile${warn(tile.key) ? ' cs-warn' : ''}`} data-testid={`dash-${tile.key}`}>
            <span className="cs-tile-label">{t(`dashboard.${tile.key}`)}</span>
            <strong className="cs-tile-value" data-testid={`dash-${tile.key}-value`}>{tile.value}</strong>
            {tile.sub ? <span className="cs-tile-sub">{tile.sub}</span> : null}
            {tile.to ? <Link to={tile.to} className="cs-link">{t('dashboard.open')}</Link> : null}
          </div>
        ))}
      </div>
    </>
  );
}
