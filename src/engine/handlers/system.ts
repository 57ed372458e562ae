/** health/get and system/info: what works, what is degraded, and the machine the models run on. */
import os from 'node:os';
import type { SystemInfo } from '../../shared/contract.ts';
import type { Config } from '../core/config.ts';
import { healthReport, type HealthDeps } from '../health/report.ts';
import type { LlamaRuntime } from '../llm/runtime.ts';
import type { Handlers } from './types.ts';

export interface SystemServices extends HealthDeps {
  runtime: LlamaRuntime;
  config: Config;
}

/** The machine as the models see it: GPU backend or CPU and why, threads, memory. Loads the runtime. */
async function systemInfo(runtime: LlamaRuntime, config: Config): Promise<SystemInfo> {
  let runtimeError: string | null = null;
  try {
    await runtime.get();
  } catch (error) {
    runtimeError = (error as Error).message;
  }
  const rt = runtime.status();
  const gpuReason = rt.gpu
    ? null
    : config.gpu === 'off'
      ? 'The GPU is turned off in the settings (gpu: off); models run on the CPU.'
      : (rt.gpuFallbackReason ?? (runtimeError ? `The model runtime did not start: ${runtimeError}` : 'No supported GPU (CUDA, Vulkan or Metal) was found; models run on the CPU.'));
  return {
    platform: process.platform,
    arch: process.arch,
    cpus: os.availableParallelism(),
    cpu_model: os.cpus()[0]?.model.trim() ?? 'unknown',
    memory_bytes: os.totalmem(),
    gpu: rt.gpu,
    gpu_reason: gpuReason,
    threads: rt.threads,
    runtime_error: runtimeError,
  };
}

export function createSystemHandlers(services: SystemServices) {
  return {
    'health/get': async (req) => healthReport(services, { allowSensitivity: req.allow_sensitivity, sensitivityEnable: services.config.sensitivityEnable }),
    'system/info': () => systemInfo(services.runtime, services.config),
  } satisfies Handlers;
}
