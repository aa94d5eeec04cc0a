export * from './optimizer';
export * from './space';
export { latinHypercube, perturb, gaussian } from './sampling';
export { mulberry32, mixSeed } from './random';
