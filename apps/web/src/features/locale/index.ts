export { LanguagePicker } from './LanguagePicker';
export { changeLocale, LOCALE_NAMES } from './changeLocale';
