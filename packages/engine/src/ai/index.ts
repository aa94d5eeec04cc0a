export { computeAiSignal, DEFAULT_AI_OPTIONS, type AiOptions, type AiResult, scoreAiSignal, type AiScore } from './indicator';
export { computeFeatures, FEATURE_NAMES, FEATURE_COUNT, FEATURE_WARMUP } from './features';
export { AiStream, type AiCandle } from './stream';
