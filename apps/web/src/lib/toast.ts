// Outcome toasts (ui.md): 3000 ms, 2000 ms on a wide landscape screen (spec §9).
import { createStore, useStore } from 'zustand';
import { DESKTOP_BREAKPOINT_PX, TOAST_MS, TOAST_WIDE_LANDSCAPE_MS, WIDE_RATIO } from '@lq/contracts';

export interface Toast {
  id: number;
  text: string;
  kind: 'info' | 'error' | 'success';
}

export function toastDuration(width: number, height: number): number {
  const wideLandscape = width >= DESKTOP_BREAKPOINT_PX && height > 0 && width / height > WIDE_RATIO;
  return wideLandscape ? TOAST_WIDE_LANDSCAPE_MS : TOAST_MS;
}

const toasts = createStore<{ items: Toast[] }>()(() => ({ items: [] }));
let nextId = 1;

export function showToast(text: string, kind: Toast['kind'] = 'info'): void {
  if (!text) return;
  const id = nextId++;
  // One toast at a time, like native toasts: the newest replaces the previous.
  toasts.setState({ items: [{ id, text, kind }] });
  const ms = typeof window === 'undefined' ? TOAST_MS : toastDuration(window.innerWidth, window.innerHeight);
  setTimeout(() => toasts.setState((s) => ({ items: s.items.filter((t) => t.id !== id) })), ms);
}

export const useToasts = () => useStore(toasts, (s) => s.items);
