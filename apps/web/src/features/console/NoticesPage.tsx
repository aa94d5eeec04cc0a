// Notices and news (GET console/api/notices): every notice with its state and reads; the editor
// writes each language's title and Markdown body, previews a body as users will see it (rendered by
// the server with the users' renderer), and publishes now or at a time, takes down, or deletes a
// draft. Publishing needs the English text: readers without their own language see it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, NOTICE_BODY_MAX, NOTICE_CATEGORIES, NOTICE_FALLBACK_LOCALE, NOTICE_STATES, NOTICE_TITLE_MAX, type ConsoleNoticeDetail, type ConsoleNoticeItem, type Locale, type NoticeCategory, type NoticeState } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { ErrorView, Spinner } from '../../components/Views';
import { showToast } from '../../lib/toast';
import { consoleApi } from './api';
import { ServerTable, useDateTime, useDebounced, useServerList, type ServerColumn } from './ui';

const LANGUAGE_NAMES: Record<Locale, string> = { 'en-US': 'English', 'zh-TW': '繁體中文', 'zh-CN': '简体中文', 'th-TH': 'ไทย', 'vi-VN': 'Tiếng Việt', 'ja-JP': '日本語', in_ID: 'Bahasa Indonesia' };

export function NoticesPage() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim());
  const [state, setState] = useState<NoticeState | ''>('');
  const [category, setCategory] = useState<NoticeCategory | ''>('');
  const { failed, filterQuery: _query, ...list } = useServerList<ConsoleNoticeItem>('notices', { q, state, category }, '-id', 20);
  const columns = useMemo<ServerColumn<ConsoleNoticeItem>[]>(
    () => [
      { id: 'id', accessorKey: 'id', header: () => t('notices.id') },
      { id: 'title', header: () => t('notices.title'), enableSorting: false, cell: ({ row }) => <span className="cs-break">{row.original.pinned ? <span aria-label={t('notices.pinned')}>📌 </span> : null}{row.original.title}</span> },
      { id: 'category', header: () => t('notices.category'), enableSorting: false, cell: ({ row }) => t(`notices.categories.${row.original.category}`) },
      {
        id: 'state',
        header: () => t('notices.state'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className={`cs-badge${row.original.state === 'unpublished' ? ' cs-bad' : ''}`} data-testid="notice-state" data-state={row.original.state}>
            {t(`notices.states.${row.original.state}`)}
          </span>
        ),
      },
      { id: 'when', header: () => t('notices.when'), enableSorting: false, cell: ({ row }) => when(row.original.publishAt) },
      { id: 'locales', header: () => t('notices.locales'), enableSorting: false, cell: ({ row }) => row.original.locales.join(', ') },
      { id: 'reads', header: () => t('notices.reads'), enableSorting: false, cell: ({ row }) => row.original.reads },
      {
        id: 'edit',
        header: () => <span className="cs-sr">{t('notices.edit')}</span>,
        enableSorting: false,
        cell: ({ row }) => (
          <button type="button" className="btn btn-secondary cs-small" onClick={() => setEditing(row.original.id)} data-testid="notice-edit">
            {t('notices.edit')}
          </button>
        ),
      },
    ],
    [t, when],
  );
  return (
    <>
      <p className="cs-hint">{t('notices.hint')}</p>
      <div className="cs-filters">
        <label className="cs-filter">
          <span>{t('notices.search')}</span>
          <input className="input" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={200} data-testid="notices-search" />
        </label>
        <label className="cs-filter">
          <span>{t('notices.state')}</span>
          <select className="input" value={state} onChange={(e) => setState(e.target.value as NoticeState | '')} data-testid="notices-state">
            <option value="">{t('all')}</option>
            {NOTICE_STATES.map((s) => (
              <option key={s} value={s}>{t(`notices.states.${s}`)}</option>
            ))}
          </select>
        </label>
        <label className="cs-filter">
          <span>{t('notices.category')}</span>
          <select className="input" value={category} onChange={(e) => setCategory(e.target.value as NoticeCategory | '')} data-testid="notices-category">
            <option value="">{t('all')}</option>
            {NOTICE_CATEGORIES.map((c) => (
              <option key={c} value={c}>{t(`notices.categories.${c}`)}</option>
            ))}
          </select>
        </label>
        <Button className="cs-end" onClick={() => setEditing('new')} data-testid="notice-new">{t('notices.new')}</Button>
      </div>
      <ServerTable {...list} columns={columns} empty={failed ? t('loadFailed') : t('notices.none')} testId="notices-table" rowTestId="notice-row" rowKey={(n) => String(n.id)} />
      {editing !== null ? <NoticeSheet id={editing} onClose={() => setEditing(null)} onCreated={setEditing} /> : null}
    </>
  );
}

function NoticeSheet({ id, onClose, onCreated }: { id: number | 'new'; onClose: () => void; onCreated: (id: number) => void }) {
  const { t } = useTranslation('console');
  const detail = useQuery({ queryKey: ['console', 'notice', id], queryFn: () => consoleApi.get<ConsoleNoticeDetail>('notices/detail', { query: { id } }), enabled: id !== 'new' });
  return (
    <Sheet title={id === 'new' ? t('notices.new') : t('notices.editing', { id })} onClose={onClose} testId="notice-editor">
      {id !== 'new' && detail.isPending ? (
        <Spinner label={t('loading')} />
      ) : id !== 'new' && (detail.isError || !detail.data) ? (
        <ErrorView message={t('loadFailed')} onRetry={() => void detail.refetch()} />
      ) : (
        <NoticeEditor key={detail.dataUpdatedAt} notice={id === 'new' ? null : detail.data!} onCreated={onCreated} onDeleted={onClose} />
      )}
    </Sheet>
  );
}

type Texts = Partial<Record<Locale, { title: string; body: string }>>;

function NoticeEditor({ notice, onCreated, onDeleted }: { notice: ConsoleNoticeDetail | null; onCreated: (id: number) => void; onDeleted: () => void }) {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const queryClient = useQueryClient();
  const [category, setCategory] = useState<NoticeCategory>(notice?.category ?? 'notice');
  const [pinned, setPinned] = useState(notice?.pinned ?? false);
  const [texts, setTexts] = useState<Texts>(() => Object.fromEntries((notice?.texts ?? []).map((x) => [x.locale, { title: x.title, body: x.body }])));
  const [locale, setLocale] = useState<Locale>(NOTICE_FALLBACK_LOCALE);
  const [preview, setPreview] = useState<{ locale: Locale; html: string } | null>(null);
  const [at, setAt] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const current = texts[locale] ?? { title: '', body: '' };
  const setCurrent = (patch: Partial<{ title: string; body: string }>) => setTexts((all) => ({ ...all, [locale]: { ...current, ...patch } }));
  // A language with neither title nor body is not one of the notice's languages.
  const filled = LOCALES.filter((l) => (texts[l]?.title.trim() ?? '') !== '' || (texts[l]?.body.trim() ?? '') !== '');

  const run = async (what: string, work: () => Promise<void>) => {
    setBusy(what);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: ['console'] });
    } catch {
      // the toast said why
    } finally {
      setBusy(null);
    }
  };
  const save = () =>
    run('save', async () => {
      const saved = await consoleApi.post<ConsoleNoticeDetail>('notices/save', {
        ...(notice ? { id: notice.id } : {}),
        category,
        pinned,
        texts: filled.map((l) => ({ locale: l, title: texts[l]!.title.trim(), body: texts[l]!.body })),
      });
      showToast(t('notices.saved'), 'success');
      if (!notice) onCreated(saved.id);
    });
  const act = (path: 'publish' | 'unpublish' | 'delete', body: Record<string, unknown>, message: string, label: string = path) =>
    run(label, async () => {
      await consoleApi.post(`notices/${path}`, { id: notice!.id, ...body });
      showToast(message, 'success');
      if (path === 'delete') onDeleted();
    });
  const showPreview = () =>
    run('preview', async () => {
      const r = await consoleApi.post<{ html: string }>('notices/preview', { body: current.body });
      setPreview({ locale, html: r.html });
    });

  return (
    <div className="cs-panel">
      {notice ? (
        <p className="cs-hint" data-testid="notice-editor-state" data-state={notice.state}>
          {t(`notices.states.${notice.state}`)}
          {notice.publishAt ? ` · ${when(notice.publishAt)}` : ''}
        </p>
      ) : null}
      <div className="cs-row">
        <label className="field cs-grow">
          <span>{t('notices.category')}</span>
          <select className="input" value={category} onChange={(e) => setCategory(e.target.value as NoticeCategory)} data-testid="notice-category">
            {NOTICE_CATEGORIES.map((c) => (
              <option key={c} value={c}>{t(`notices.categories.${c}`)}</option>
            ))}
          </select>
        </label>
        <label className="cs-check">
          <input type="checkbox" checked={pinned} onChange={(e) => setPinned(e.target.checked)} data-testid="notice-pinned" />
          <span>{t('notices.pin')}</span>
        </label>
      </div>
      <div className="cs-tabs" role="tablist" aria-label={t('notices.languages')}>
        {LOCALES.map((l) => (
          <button key={l} type="button" role="tab" aria-selected={locale === l} className="chip" onClick={() => setLocale(l)} data-testid={`notice-lang-${l}`} data-filled={filled.includes(l)}>
            {LANGUAGE_NAMES[l]}
            {filled.includes(l) ? ' ✓' : ''}
          </button>
        ))}
      </div>
      {locale === NOTICE_FALLBACK_LOCALE ? <p className="cs-hint">{t('notices.englishHint')}</p> : null}
      <label className="field">
        <span>{t('notices.titleOf', { language: LANGUAGE_NAMES[locale] })}</span>
        <input className="input" value={current.title} maxLength={NOTICE_TITLE_MAX} onChange={(e) => setCurrent({ title: e.target.value })} data-testid="notice-title" />
      </label>
      <label className="field">
        <span>{t('notices.body')}</span>
        <textarea className="input cs-textarea" value={current.body} maxLength={NOTICE_BODY_MAX} rows={8} onChange={(e) => setCurrent({ body: e.target.value })} data-testid="notice-body" />
      </label>
      <div className="cs-row">
        <Button variant="secondary" busy={busy === 'preview'} onClick={() => void showPreview()} data-testid="notice-preview">{t('notices.preview')}</Button>
        <Button busy={busy === 'save'} disabled={filled.length === 0} onClick={() => void save()} data-testid="notice-save">{t('notices.save')}</Button>
      </div>
      {preview ? (
        <section className="cs-card" aria-label={t('notices.previewOf', { language: LANGUAGE_NAMES[preview.locale] })} data-testid="notice-preview-box" data-locale={preview.locale}>
          <p className="cs-sub">{t('notices.previewOf', { language: LANGUAGE_NAMES[preview.locale] })}</p>
          <h3 className="cs-card-title">{texts[preview.locale]?.title}</h3>
          <div className="cs-md" dangerouslySetInnerHTML={{ __html: preview.html }} />
        </section>
      ) : null}
      {notice ? (
        <div className="cs-card cs-panel">
          <p className="cs-hint">{t('notices.saveFirst')}</p>
          {notice.state !== 'published' ? (
            <>
              <Button busy={busy === 'publish'} onClick={() => void act('publish', {}, t('notices.published'))} data-testid="notice-publish">{t('notices.publishNow')}</Button>
              <div className="cs-row cs-end-row">
                <label className="field cs-grow">
                  <span>{t('notices.at')}</span>
                  <input className="input" type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} data-testid="notice-at" />
                </label>
                <Button variant="secondary" disabled={!at} busy={busy === 'schedule'} onClick={() => void act('publish', { at: new Date(at).toISOString() }, t('notices.scheduled'), 'schedule')} data-testid="notice-schedule">
                  {t('notices.schedule')}
                </Button>
              </div>
            </>
          ) : null}
          {notice.state === 'published' || notice.state === 'scheduled' ? (
            <Button variant="secondary" busy={busy === 'unpublish'} onClick={() => void act('unpublish', {}, t('notices.unpublished'))} data-testid="notice-unpublish">{t('notices.unpublish')}</Button>
          ) : null}
          {notice.state === 'draft' ? (
            <Button variant="danger" busy={busy === 'delete'} onClick={() => void act('delete', {}, t('notices.deleted'))} data-testid="notice-delete">{t('notices.delete')}</Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
