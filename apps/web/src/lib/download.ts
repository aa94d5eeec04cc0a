// Files the API serves to the signed-in user (wallet exports, the rebate history): fetched with the
// session's token — a plain link cannot carry it — and handed to the browser to save.
import { toLangHeader } from '@lq/contracts';
import { ApiError } from './api';
import { appStore } from './store';

/**
 * GETs `path` (relative to the site) with the session (or another bearer token: the console's) and
 * saves the answer as `fileName`; an error answer rejects with its ApiError.
 */
export async function downloadFile(path: string, fileName: string, token = appStore.getState().token): Promise<void> {
  const { locale } = appStore.getState();
  const res = await fetch(`${window.location.origin}/${path}`, {
    headers: { authorization: `Bearer ${token ?? ''}`, lang: toLangHeader(locale) },
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { code?: string; msg?: string } | null;
    throw new ApiError(body?.code ?? String(res.status), body?.msg ?? res.statusText, res.status);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
