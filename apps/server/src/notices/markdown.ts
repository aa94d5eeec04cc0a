// Notice bodies are Markdown written by operators and shown inside the app: rendered here with
// markdown-it, raw HTML off (tags come out as text), links that would run code or carry content
// (javascript:, vbscript:, data:, file:) dropped — markdown-it's own check lets data:image through,
// ours does not — and every link opened outside the app without the opener.
import MarkdownIt from 'markdown-it';

const UNSAFE_SCHEME = /^(javascript|vbscript|data|file):/i;

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
// markdown-it has already decoded entities and percent-escapes by the time it asks (normalizeLink).
md.validateLink = (url: string) => !UNSAFE_SCHEME.test(url.replace(/\s/g, ''));

const renderLinkOpen = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i].attrSet('target', '_blank');
  tokens[i].attrSet('rel', 'noopener noreferrer nofollow');
  return renderLinkOpen(tokens, i, options, env, self);
};

/** A notice body as HTML safe to put into the page. */
export const renderNoticeHtml = (body: string): string => md.render(body);

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** A notice body as one line of plain text (for the list), cut at `max` characters. */
export function noticeExcerpt(body: string, max = 140): string {
  const text = md
    .render(body)
    // Block ends become spaces, inline tags nothing ("<a>status</a>." stays "status.").
    .replace(/<\/(p|li|h[1-6]|blockquote|pre|td|th)>|<(br|hr)\s*\/?>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e])
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}
