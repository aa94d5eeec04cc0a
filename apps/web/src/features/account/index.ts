// Public surface of the account feature for the app layer. Pages, and the desktop top bar's
// UserMenu, are loaded lazily by path.
export { useUserInfo, displayName } from './useUserInfo';
