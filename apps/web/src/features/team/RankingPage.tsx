// pages/index/rankingList/rankingList: the leaderboards over the 30 days before today (platform
// timezone) — robot volume, new team members, rebates — computed daily. Others' names come masked
// from the server; the viewer's own row is named and always shown with its rank, below the top
// when it is not in it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RANKING_BOARDS, type RankingBoard, type RankingRow } from '@lq/contracts';
import { ErrorView } from '../../components/Views';
import { localeTag } from '../../lib/format';
import { displayMoney } from '../../lib/money';
import { useAppStore } from '../../lib/store';
import { useRanking } from './api';
import '../../components/screens.css';
import './team.css';

const valueText = (by: RankingBoard, v: string) => (by === 'team' ? v : displayMoney(v));

export default function RankingPage() {
  const { t } = useTranslation('team');
  const { t: tc } = useTranslation();
  const [by, setBy] = useState<RankingBoard>('volume');
  const ranking = useRanking(by);
  const locale = useAppStore((s) => s.locale);
  const r = ranking.data;
  const day = (ms: number, timeZone: string) => new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(ms);
  const meBelow = r?.me && !r.list.some((x) => x.self) ? r.me : null;
  return (
    <div className="bt-page tm-page" data-testid="ranking-page">
      <section className="card" aria-labelledby="tm-ranking-title">
        <h2 className="bt-h2" id="tm-ranking-title">{t('ranking.title')}</h2>
        <div className="tm-boards" role="group" aria-label={t('ranking.title')}>
          {RANKING_BOARDS.map((b) => (
            <button key={b} type="button" className="chip" aria-pressed={b === by} onClick={() => setBy(b)} data-testid={`ranking-by-${b}`}>
              {t(`ranking.board.${b}`)}
            </button>
          ))}
        </div>
        {r ? (
          <p className="bt-sub" data-testid="ranking-window">
            {r.window ? t('ranking.window', { from: day(r.window.from, r.window.timeZone), to: day(r.window.to - 1, r.window.timeZone) }) : t('ranking.notYet')}
          </p>
        ) : null}
        {ranking.isPending ? <div className="spinner" aria-label={tc('common.loading')} /> : null}
        {ranking.isError ? <ErrorView message={tc('common.loadFailed')} onRetry={() => void ranking.refetch()} /> : null}
        {r && r.list.length === 0 && !meBelow ? <p className="bt-sub" data-testid="ranking-empty">{t('ranking.empty')}</p> : null}
        {r ? (
          <ol className="tm-ranking" data-testid="ranking-list" data-by={r.by} data-total={r.total}>
            {r.list.map((row) => (
              <Row key={row.rank} by={r.by} row={row} />
            ))}
            {meBelow ? <Row by={r.by} row={meBelow} gap /> : null}
          </ol>
        ) : null}
        {r && !r.me && r.window ? <p className="bt-sub" data-testid="ranking-not-ranked">{t('ranking.notRanked')}</p> : null}
      </section>
    </div>
  );
}

function Row({ by, row, gap }: { by: RankingBoard; row: RankingRow; gap?: boolean }) {
  const { t } = useTranslation('team');
  return (
    <li className={`tm-rank-row${row.self ? ' self' : ''}${gap ? ' gap' : ''}`} data-testid="ranking-row" data-rank={row.rank} data-self={row.self}>
      <span className="num tm-rank">{row.rank}</span>
      <span className="tm-rank-name">
        {row.name}
        {row.self ? <span className="badge">{t('ranking.you')}</span> : null}
        {row.level.includes('VIP') ? <span className="badge muted">{row.level}</span> : null}
      </span>
      <strong className="num tm-rank-value">{valueText(by, row.value)}</strong>
    </li>
  );
}
