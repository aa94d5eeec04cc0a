// The wide screen's frame (≥ 768 px): top bar and left menu, one chunk phones never download.
export { preloadTopBar, TopBar } from './TopBar';
export { SideMenu } from './SideMenu';
