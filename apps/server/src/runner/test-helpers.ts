// The runner tests' helpers live in test/robots.ts, shared with the drift monitor's tests.
export * from '../../test/robots';
