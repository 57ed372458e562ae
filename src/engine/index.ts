/** The engine's public entry: `import { createEngine } from 'synapsis'`. */
export { createEngine, type Engine, type EngineOptions } from './engine.ts';
export { loadConfig, type Config, type ConfigInput } from './config.ts';
export { defaultDataDir } from './paths.ts';
export * from '../shared/contract.ts';
export * from '../shared/errors.ts';
export { buildContext, estimateTokens, type BuiltContext, type ContextBlock, type ContextChunk, type ContextOptions } from './retrieve/context.ts';
