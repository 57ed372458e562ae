/** The engine's public entry: `import { createEngine } from 'synapsis'`. */
export { createEngine, prepareEngineStore, type CallContext, type Engine, type EngineOptions, type WatchOptions } from './engine.ts';
export { loadConfig, type Config, type ConfigInput } from './core/config.ts';
export { defaultDataDir } from './core/paths.ts';
export * from '../shared/contract.ts';
export * from '../shared/errors.ts';
export { buildContext, estimateTokens, type BuiltContext, type ContextBlock, type ContextChunk, type ContextOptions } from './retrieve/context.ts';
export { EngineHost, type EngineHostOptions } from './host/engine-host.ts';
export { serveRpc, type HostHandlers, type RpcServerOptions } from './host/rpc-server.ts';
export { openInEditor, openUrl, type OpenResult, type OpenTarget } from './host/open-file.ts';
export { defaultDemoDir, loadTour, type DemoSetup } from './host/demo.ts';
export { importBundledModels, type BundledImport } from './host/bundled-models.ts';
