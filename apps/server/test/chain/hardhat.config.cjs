// The local EVM chain of the deposit tests (`test/local-chain.ts` starts `hardhat node` here).
module.exports = { networks: { hardhat: { chainId: 31337 } } };
