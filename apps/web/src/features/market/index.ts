export { MarketSwitcher } from './MarketSwitcher';
export { useMarketSync } from './useMarketSync';
export { refreshDataSources, chooseDataSource } from './dataSources';
export { pickCurrentDataSource } from './selection';
