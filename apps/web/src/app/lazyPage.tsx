// Lazy pages with the timings of spec §9: the loading view appears only after 200 ms, and an
// error view with retry replaces it after 60 s or when the chunk fails to load.
import { Component, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LAZY_PAGE_DELAY_MS, LAZY_PAGE_TIMEOUT_MS } from '@lq/contracts';
import { ErrorView, Spinner } from '../components/Views';

export class PageLoadTimeout extends Error {
  constructor() {
    super('page load timed out');
    this.name = 'PageLoadTimeout';
  }
}

/** Rejects with PageLoadTimeout when `promise` has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PageLoadTimeout()), ms);
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}

function DelayedSpinner() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), LAZY_PAGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return visible ? <Spinner label={t('common.loading')} /> : null;
}

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}
class PageErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) return <PageErrorView timeout={this.state.error instanceof PageLoadTimeout} onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}

function PageErrorView({ timeout, onRetry }: { timeout: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  return <ErrorView message={t(timeout ? 'common.timeout' : 'common.loadFailed')} onRetry={onRetry} />;
}

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

export type LazyPage<P> = ComponentType<P> & { preload(): void };

export function lazyPage<P extends object>(load: Loader<P>, timeoutMs = LAZY_PAGE_TIMEOUT_MS): LazyPage<P> {
  // The first attempt may already be under way through preload() (started before React renders).
  let early: Promise<{ default: ComponentType<P> }> | undefined;
  const make = () =>
    lazy(() => {
      const pending = early ?? load();
      early = undefined;
      return withTimeout(pending, timeoutMs);
    });
  // One lazy component per attempt; a retry builds a fresh one so the failed promise is not reused.
  const attempts: ComponentType<P>[] = [make()];
  function LazyPage(props: P) {
    const [attempt, setAttempt] = useState(0);
    const Page = attempts[attempt] ?? attempts[0];
    const retry = () => {
      attempts[attempt + 1] ??= make();
      setAttempt(attempt + 1);
    };
    return (
      <PageErrorBoundary key={attempt} onRetry={retry}>
        <Suspense fallback={<DelayedSpinner />}>
          <Page {...props} />
        </Suspense>
      </PageErrorBoundary>
    );
  }
  return Object.assign(LazyPage, {
    preload() {
      early ??= load();
    },
  });
}
