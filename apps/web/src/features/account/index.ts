// Public surface of the account feature for the app layer. Pages are loaded lazily by path.
export { UserMenu } from './UserMenu';
export { useUserInfo, displayName } from './useUserInfo';
