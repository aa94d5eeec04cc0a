// pages/notice/notice: notices and news, pinned first then newest, each in the reader's language or
// else in English (said on the item). Opening one shows its body (Markdown rendered and made safe on
// the server) and marks it read; `?id=` opens one directly (links from notifications). Guests can
// read too; the unread dots, the count and "mark all read" are a signed-in user's.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from '../../lib/router';
import { NOTICE_CATEGORIES, type NoticeCategory, type NoticeItem } from '@lq/contracts';
import { ErrorView } from '../../components/Views';
import { localeTag } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { useLoadMore } from '../../lib/useLoadMore';
import { countText, useMarkRead, useNoticeDetail, useNotices, useUnread } from './api';
import { NotificationCentre } from './NotificationCentre';
import '../../components/screens.css';
import './notice.css';

export default function NoticePage() {
  const { t } = useTranslation('notice');
  const [search, setSearch] = useSearchParams();
  const token = useAppStore((s) => s.token);
  const unread = useUnread();
  const tab = token && search.get('tab') === 'notifications' ? 'notifications' : 'notices';
  const show = (next: 'notices' | 'notifications') => setSearch(next === 'notices' ? {} : { tab: next }, { replace: true });
  return (
    <div className="bt-page nt-page" data-testid="notice-page">
      {token ? (
        <div className="nt-views" role="tablist" aria-label={t('views')}>
          {(['notices', 'notifications'] as const).map((v) => (
            <button key={v} type="button" role="tab" className="nt-view" aria-selected={tab === v} onClick={() => show(v)} data-testid={`notice-view-${v}`}>
              {t(`view.${v}`)}
              {unread[v] > 0 ? <span className="nt-count">{countText(unread[v])}</span> : null}
            </button>
          ))}
        </div>
      ) : null}
      {tab === 'notices' ? <Notices linked={Number(search.get('id')) || null} /> : <NotificationCentre />}
    </div>
  );
}

function Notices({ linked }: { linked: number | null }) {
  const { t } = useTranslation('notice');
  const { t: tc } = useTranslation();
  const [category, setCategory] = useState<NoticeCategory | undefined>(undefined);
  const [open, setOpen] = useState<number | null>(linked);
  const notices = useNotices(category);
  const markRead = useMarkRead();
  const token = useAppStore((s) => s.token);
  const sentinel = useLoadMore(notices);
  const pages = notices.data?.pages ?? [];
  const items = pages.flatMap((p) => p.list);
  const unread = token ? (pages.at(-1)?.unread ?? 0) : 0;

  return (
    <section className="card" aria-label={tc('page.notice')}>
      <div className="nt-head">
        <div className="nt-tabs" role="group" aria-label={tc('page.notice')}>
          {[undefined, ...NOTICE_CATEGORIES].map((c) => (
            <button key={c ?? 'all'} type="button" className="chip" aria-pressed={c === category} onClick={() => setCategory(c)} data-testid={`notice-tab-${c ?? 'all'}`}>
              {t(c ? `category.${c}` : 'all')}
            </button>
          ))}
        </div>
        {unread > 0 ? (
          <button type="button" className="btn btn-ghost" onClick={() => void markRead.mark()} disabled={markRead.pending} data-testid="notice-read-all">
            {t('readAll', { count: unread })}
          </button>
        ) : null}
      </div>
      {notices.isPending ? <div className="spinner" aria-label={tc('common.loading')} /> : null}
      {notices.isError ? <ErrorView message={tc('common.loadFailed')} onRetry={() => void notices.refetch()} /> : null}
      {notices.isSuccess && items.length === 0 ? (
        <p className="bt-sub" data-testid="notice-empty">
          {t('empty')}
        </p>
      ) : null}
      <ul className="nt-list" data-testid="notice-list" data-unread={unread}>
        {items.map((n) => (
          <Notice key={n.id} item={n} open={open === n.id} onToggle={() => setOpen(open === n.id ? null : n.id)} showRead={Boolean(token)} />
        ))}
      </ul>
      <div ref={sentinel} />
      {notices.hasNextPage ? (
        <button type="button" className="btn btn-ghost btn-block" onClick={() => void notices.fetchNextPage()} disabled={notices.isFetchingNextPage} data-testid="notice-more">
          {t('more')}
        </button>
      ) : null}
    </section>
  );
}

function Notice({ item, open, onToggle, showRead }: { item: NoticeItem; open: boolean; onToggle: () => void; showRead: boolean }) {
  const { t } = useTranslation('notice');
  const { t: tc } = useTranslation();
  const locale = useAppStore((s) => s.locale);
  const detail = useNoticeDetail(open ? item.id : null);
  const { mark } = useMarkRead();
  const unread = showRead && !item.read;
  // Read once opened and shown (not when the request for it failed).
  useEffect(() => {
    if (open && unread && detail.isSuccess) void mark(item.id);
  }, [open, unread, detail.isSuccess, mark, item.id]);
  const when = new Intl.DateTimeFormat(localeTag(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(item.publishedAt);
  return (
    <li className={`nt-item${unread ? ' unread' : ''}`} data-testid={`notice-${item.id}`} data-read={!unread}>
      <button type="button" className="nt-toggle" aria-expanded={open} aria-controls={`nt-body-${item.id}`} onClick={onToggle} data-testid={`notice-open-${item.id}`}>
        <span className="nt-title-row">
          {unread ? <span className="nt-dot" role="img" aria-label={t('unread')} /> : null}
          {item.pinned ? <span className="badge">{t('pinned')}</span> : null}
          <span className="badge muted">{t(`category.${item.category}`)}</span>
          <span className="nt-title">{item.title}</span>
        </span>
        <span className="nt-meta">
          <time dateTime={new Date(item.publishedAt).toISOString()}>{when}</time>
          {item.locale !== locale ? <span data-testid={`notice-fallback-${item.id}`}> · {t('untranslated')}</span> : null}
        </span>
        {open ? null : <span className="nt-excerpt">{item.excerpt}</span>}
      </button>
      {open ? (
        <div id={`nt-body-${item.id}`} className="nt-body">
          {detail.isPending ? <div className="spinner" aria-label={tc('common.loading')} /> : null}
          {detail.isError ? <ErrorView message={tc('common.loadFailed')} onRetry={() => void detail.refetch()} /> : null}
          {/* Rendered on the server by markdown-it with raw HTML off and script/data links dropped (notices/markdown.ts). */}
          {detail.data ? <div className="nt-md" dangerouslySetInnerHTML={{ __html: detail.data.html }} data-testid={`notice-body-${item.id}`} /> : null}
        </div>
      ) : null}
    </li>
  );
}
