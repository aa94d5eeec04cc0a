// Calls of the notice screens (packages/contracts/src/notice.ts; docs/api.md "Notices") and their hooks.
import { useCallback, useState } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NoticeCategory, NoticeDetail, NoticeList, NoticeUnread, NotificationList, NotificationPrefs } from '@lq/contracts';
import { api } from '../../lib/session';
import { useAppStore } from '../../lib/store';

export const NOTICE_PATH = '/pages/notice/notice';
const PAGE_SIZE = 20;

/** Notices and news (all when `category` is undefined), pinned first, page by page. */
export function useNotices(category: NoticeCategory | undefined) {
  const token = useAppStore((s) => s.token);
  return useInfiniteQuery({
    queryKey: ['notice', 'list', category ?? 'all', token ? 'user' : 'guest'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => api.get<NoticeList>('user/api/notice/list', { query: { page: pageParam, size: PAGE_SIZE, ...(category ? { category } : {}) } }),
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
}

export function useNoticeDetail(id: number | null) {
  return useQuery({ queryKey: ['notice', 'detail', id], queryFn: () => api.get<NoticeDetail>('user/api/notice/detail', { query: { id: id! } }), enabled: id !== null });
}

const unreadQuery = (what: 'notice' | 'notification', enabled: boolean) => ({
  queryKey: [what, 'unread'],
  queryFn: () => api.get<NoticeUnread>(`user/api/${what}/unread`, { silent: true }),
  enabled,
  staleTime: 60_000,
  refetchInterval: 5 * 60_000,
});

/** Unread notices and notifications of the signed-in user (the badge counts both); nothing for guests. */
export function useUnread() {
  const token = useAppStore((s) => s.token);
  const notices = useQuery(unreadQuery('notice', Boolean(token))).data?.unread ?? 0;
  const notifications = useQuery(unreadQuery('notification', Boolean(token))).data?.unread ?? 0;
  return { notices, notifications, total: notices + notifications };
}

/** The caller's notifications, newest first, page by page. */
export function useNotifications() {
  return useInfiniteQuery({
    queryKey: ['notification', 'list'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => api.get<NotificationList>('user/api/notification/list', { query: { page: pageParam, size: PAGE_SIZE } }),
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
}

/**
 * Marks one notice (or notification) read, or all of them without an id; the badge and the lists
 * follow. A plain call, not useMutation: nothing else uses TanStack's mutations, and that module
 * alone would move out of the shell into a chunk of its own the first screen then preloads (0.6 KB
 * gzip over its budget).
 */
export function useMarkRead(what: 'notice' | 'notification' = 'notice') {
  const client = useQueryClient();
  const [pending, setPending] = useState(false);
  const mark = useCallback(
    async (id?: number) => {
      setPending(true);
      try {
        const data = await api.post<NoticeUnread>(`user/api/${what}/read`, id === undefined ? {} : { id });
        client.setQueryData([what, 'unread'], data);
        await client.invalidateQueries({ queryKey: [what, 'list'] });
      } catch {
        // The API client has shown the error; the item stays unread and can be opened again.
      } finally {
        setPending(false);
      }
    },
    [client, what],
  );
  return { mark, pending };
}

/** An unread count as a badge shows it. */
export const countText = (n: number) => (n > 99 ? '99+' : String(n));

/** Which channels each kind goes to, and the Telegram link; polled while a link waits to be opened. */
export function useNotificationPrefs(waitingForLink: boolean) {
  return useQuery({
    queryKey: ['notification', 'prefs'],
    queryFn: () => api.get<NotificationPrefs>('user/api/notification/prefs'),
    refetchInterval: waitingForLink ? 3_000 : false,
  });
}
