import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { UserInfo } from '@lq/contracts';
import { api } from '../../lib/session';
import { appStore, useAppStore } from '../../lib/store';

/** The stored user, refreshed from `user/api/info` when a token exists. */
export function useUserInfo() {
  const token = useAppStore((s) => s.token);
  const user = useAppStore((s) => s.user);
  const query = useQuery({
    queryKey: ['user-info', token],
    queryFn: () => api.get<UserInfo>('user/api/info', { silent: true }),
    enabled: !!token,
    staleTime: 30_000,
  });
  useEffect(() => {
    if (query.data && appStore.getState().token === token) appStore.getState().setUser(query.data);
  }, [query.data, token]);
  return { user, token, refetch: query.refetch };
}

export const displayName = (user: Pick<UserInfo, 'nickname' | 'userName' | 'mail'>) => user.nickname || user.userName || user.mail;
