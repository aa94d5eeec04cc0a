// Endpoint URLs often carry a secret (an RPC provider's API key in the path or query, a password in
// the userinfo). Anything that may reach a log or an answer names an endpoint by its origin only.

/** `text` with every http(s) URL cut to its origin: `https://bsc.example/v1/KEY?x=1` → `https://bsc.example/…`. */
export function withoutUrlSecrets(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>)]+/gi, (url) => {
    try {
      const u = new URL(url);
      return `${u.protocol}//${u.host}${u.pathname === '/' && !u.search ? '' : '/…'}`;
    } catch {
      return '<url>';
    }
  });
}
