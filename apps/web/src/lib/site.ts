// What the operator configured that screens show (GET user/api/site): the support address of the
// privacy policy, the egress IPs the API-key form asks to whitelist. Read once per visit.
import { useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '@lq/contracts';
import { api } from './session';

export function useSiteInfo(): SiteInfo | undefined {
  return useQuery({ queryKey: ['site'], queryFn: () => api.get<SiteInfo>('user/api/site', { silent: true }), staleTime: Infinity }).data;
}
