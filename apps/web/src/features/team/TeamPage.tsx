// pages/group/group and pages/group/groupNext: the caller's team. group: the figures of the whole
// team over the 30-day window, the invite link, and the direct referrals; groupNext?parent=<id>:
// the direct referrals of someone below (their own team, one level down each time). Each member:
// nickname (or invite code), level, join date, 30-day volume, active or not, their team. Below the
// caller's own list: the rebates earned (today, this month, in all) with each one's payment, and
// the whole history as CSV.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from '../../lib/router';
import type { RebateItem, TeamMember } from '@lq/contracts';
import { Button } from '../../components/Button';
import { InviteCopyButton } from '../../components/InviteCopyButton';
import { ErrorView } from '../../components/Views';
import { ApiError } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { localeTag } from '../../lib/format';
import { displayMoney } from '../../lib/money';
import { useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { useLoadMore } from '../../lib/useLoadMore';
import { EXPLAIN_PATH, RANKING_PATH, REBATE_EXPORT_PATH, TEAM_NEXT_PATH, useRebates, useTeamList, useTeamSummary } from './api';
import '../../components/screens.css';
import './team.css';

function useDate() {
  const locale = useAppStore((s) => s.locale);
  const format = new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit' });
  return (ms: number) => format.format(ms);
}

/** The window [from, to) said as its first and last day, days of the platform's timezone. */
function useWindowText() {
  const { t } = useTranslation('team');
  const locale = useAppStore((s) => s.locale);
  return (w: { from: number; to: number; timeZone: string }) => {
    const day = new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: w.timeZone });
    return t('window', { from: day.format(w.from), to: day.format(w.to - 1) });
  };
}

export default function TeamPage() {
  const [params] = useSearchParams();
  const parent = Number(params.get('parent')) || undefined;
  return (
    <div className="bt-page tm-page" data-testid="team-page">
      {parent === undefined ? <Summary /> : null}
      <Members key={parent ?? 'me'} parent={parent} />
      {parent === undefined ? <Rebates /> : null}
    </div>
  );
}

function Summary() {
  const { t } = useTranslation('team');
  const { t: tc } = useTranslation();
  const summary = useTeamSummary();
  const user = useAppStore((s) => s.user);
  const windowText = useWindowText();
  if (summary.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (summary.isError) return <ErrorView message={tc('common.loadFailed')} onRetry={() => void summary.refetch()} />;
  const s = summary.data;
  return (
    <section className="card" aria-labelledby="tm-summary-title" data-testid="team-summary">
      <h2 className="bt-h2" id="tm-summary-title">{t('summary.title')}</h2>
      <p className="bt-sub" data-testid="team-window">{windowText(s.window)}</p>
      <dl className="tm-figures">
        <div><dt>{t('summary.direct')}</dt><dd className="num" data-testid="team-direct">{s.direct}</dd></div>
        <div><dt>{t('summary.team')}</dt><dd className="num" data-testid="team-size">{s.team}</dd></div>
        <div><dt>{t('summary.volume')}</dt><dd className="num" data-testid="team-volume">{displayMoney(s.teamVolume)}</dd></div>
        <div><dt>{t('summary.active')}</dt><dd className="num" data-testid="team-active">{s.activeUsers}</dd></div>
      </dl>
      {user ? (
        <div className="tm-invite">
          <span className="bt-sub">{t('summary.inviteCode')} <span className="num" data-testid="team-invite-code">{user.userCode}</span></span>
          <InviteCopyButton code={user.userCode} testId="team-copy-invite" />
        </div>
      ) : null}
    </section>
  );
}

function Members({ parent }: { parent: number | undefined }) {
  const { t } = useTranslation('team');
  const { t: tc } = useTranslation();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const members = useTeamList(parent, q);
  const sentinel = useLoadMore(members);
  const first = members.data?.pages[0];
  const list: TeamMember[] = members.data?.pages.flatMap((p) => p.list) ?? [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQ(search.trim());
  };

  if (members.isError) {
    const notFound = members.error instanceof ApiError && members.error.status === 404;
    return notFound ? (
      <section className="card" data-testid="team-not-found"><p className="bt-sub">{t('list.notFound')}</p></section>
    ) : (
      <ErrorView message={tc('common.loadFailed')} onRetry={() => void members.refetch()} />
    );
  }
  const who = first && parent !== undefined ? first.parent.nickname || first.parent.userCode : undefined;
  return (
    <section className="card" aria-labelledby="tm-list-title" data-testid="team-members" data-total={first?.total}>
      <h2 className="bt-h2" id="tm-list-title">{who ? t('list.theirs', { who }) : t('list.title')}</h2>
      {first && parent !== undefined ? <p className="bt-sub" data-testid="team-depth">{t('list.depth', { n: first.parent.depth })}</p> : null}
      <form className="tm-search" role="search" onSubmit={submit}>
        <input
          className="input"
          type="search"
          value={search}
          maxLength={32}
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="team-search"
        />
        <Button type="submit" variant="secondary" data-testid="team-search-go">{t('list.find')}</Button>
      </form>
      {members.isPending ? <div className="spinner" aria-label={tc('common.loading')} /> : null}
      {members.isSuccess && list.length === 0 ? (
        <p className="bt-sub" data-testid="team-empty">{q ? t('list.noMatch') : parent === undefined ? t('list.emptyMine') : t('list.empty')}</p>
      ) : null}
      <ul className="tm-members">
        {list.map((m) => (
          <MemberRow key={m.id} m={m} />
        ))}
      </ul>
      <div ref={sentinel} />
      {members.hasNextPage ? (
        <Button variant="secondary" block busy={members.isFetchingNextPage} onClick={() => void members.fetchNextPage()}>{t('list.more')}</Button>
      ) : null}
    </section>
  );
}

function MemberRow({ m }: { m: TeamMember }) {
  const { t } = useTranslation('team');
  const date = useDate();
  const vip = m.level.includes('VIP');
  return (
    <li className="tm-member" data-testid="team-member" data-id={m.id} data-active={m.active}>
      <div className="tm-member-head">
        <span className="tm-member-name">{m.nickname || m.userCode}</span>
        <span className={`badge${vip ? '' : ' muted'}`} data-testid="team-member-level">{vip ? m.level : t('member.regular')}</span>
        <span className={`badge${m.active ? '' : ' muted'}`}>{m.active ? t('member.active') : t('member.inactive')}</span>
      </div>
      <dl className="tm-member-facts">
        <div><dt>{t('member.code')}</dt><dd className="num">{m.userCode}</dd></div>
        <div><dt>{t('member.joined')}</dt><dd className="num">{date(m.joinedAt)}</dd></div>
        <div><dt>{t('member.volume')}</dt><dd className="num" data-testid="team-member-volume">{displayMoney(m.volume)}</dd></div>
        <div><dt>{t('member.team')}</dt><dd className="num">{t('member.teamCount', { direct: m.direct, team: m.team })}</dd></div>
      </dl>
      {m.direct > 0 ? (
        <Link className="btn btn-secondary" to={`${TEAM_NEXT_PATH}?parent=${m.id}`} data-testid="team-member-open">{t('member.open')}</Link>
      ) : null}
    </li>
  );
}

/** The rebates earned on the team's payments: the sums, then each with the payment it came from. */
function Rebates() {
  const { t } = useTranslation('team');
  const { t: tc } = useTranslation();
  const rebates = useRebates();
  const sentinel = useLoadMore(rebates);
  const [saving, setSaving] = useState(false);
  const first = rebates.data?.pages[0];
  const list: RebateItem[] = rebates.data?.pages.flatMap((p) => p.list) ?? [];
  const save = async () => {
    setSaving(true);
    try {
      await downloadFile(REBATE_EXPORT_PATH, 'rebates.csv');
    } catch (e) {
      showToast(e instanceof ApiError ? e.message : tc('common.loadFailed'), 'error');
    } finally {
      setSaving(false);
    }
  };
  if (rebates.isError) return <ErrorView message={tc('common.loadFailed')} onRetry={() => void rebates.refetch()} />;
  return (
    <section className="card" aria-labelledby="tm-rebates-title" data-testid="team-rebates" data-total={first?.total}>
      <h2 className="bt-h2" id="tm-rebates-title">{t('rebates.title')}</h2>
      {first ? (
        <dl className="tm-figures">
          <div><dt>{t('rebates.today')}</dt><dd className="num" data-testid="rebate-today">{displayMoney(first.sums.today)}</dd></div>
          <div><dt>{t('rebates.month')}</dt><dd className="num" data-testid="rebate-month">{displayMoney(first.sums.month)}</dd></div>
          <div><dt>{t('rebates.total')}</dt><dd className="num" data-testid="rebate-total">{displayMoney(first.sums.total)}</dd></div>
        </dl>
      ) : (
        <div className="spinner" aria-label={tc('common.loading')} />
      )}
      <p className="bt-sub">{t('rebates.when')}</p>
      <p className="tm-links">
        <Link to={EXPLAIN_PATH} data-testid="team-explain">{t('rebates.rules')}</Link>
        <Link to={RANKING_PATH} data-testid="team-ranking">{t('rebates.ranking')}</Link>
      </p>
      {rebates.isSuccess && list.length === 0 ? <p className="bt-sub" data-testid="rebate-empty">{t('rebates.empty')}</p> : null}
      <ul className="tm-members">
        {list.map((r) => (
          <RebateRow key={r.id} r={r} />
        ))}
      </ul>
      <div ref={sentinel} />
      {rebates.hasNextPage ? (
        <Button variant="secondary" block busy={rebates.isFetchingNextPage} onClick={() => void rebates.fetchNextPage()}>{t('list.more')}</Button>
      ) : null}
      {list.length > 0 ? (
        <Button variant="secondary" block className="tm-csv" busy={saving} onClick={() => void save()} data-testid="rebate-csv">{t('rebates.csv')}</Button>
      ) : null}
    </section>
  );
}

function RebateRow({ r }: { r: RebateItem }) {
  const { t } = useTranslation('team');
  const date = useDate();
  return (
    <li className="tm-member" data-testid="rebate-row" data-kind={r.kind} data-payment={r.paymentId}>
      <div className="tm-member-head">
        <strong className="num tm-rebate-amount" data-testid="rebate-amount">+{displayMoney(r.amount)}</strong>
        <span className="badge muted">{t(`rebates.kind.${r.kind}`)}</span>
      </div>
      <p className="bt-sub">
        {t('rebates.from', { who: r.payer.nickname || r.payer.userCode, n: r.depth, id: r.paymentId, amount: displayMoney(r.paymentAmount) })}
      </p>
      <p className="bt-sub num">
        {t(r.kind === 'share' ? 'rebates.shareRate' : 'rebates.rate', { rate: r.rate, level: r.level === 'none' ? t('member.regular') : r.level })} · {date(r.creditedAt)}
      </p>
    </li>
  );
}
