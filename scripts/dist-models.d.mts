export const BUNDLED_MODELS_DIR: string;
export const MANIFEST: string;
export interface StagedModel {
  file: string;
  sha256: string;
  size_bytes: number;
  id?: string;
  role?: 'embed' | 'chat' | 'rerank';
  languages?: string[];
  verified: boolean;
}
export function parseDistArgs(argv: string[]): { withModels: string | null; builderArgs: string[] };
export function stageModels(dir: string, staging: string, catalog: readonly { id: string; file: string; sha256: string | null; role: string; languages: string[] }[]): StagedModel[];
export function withModelsConfig<T extends { extraResources?: unknown[] }>(config: T, staging: string): T & { extraResources: unknown[] };
