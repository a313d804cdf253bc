// The funnel's LLM planner built from settings: present only when an Anthropic key is configured
// (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, SVC_SSI__LLM_MODEL and the SVC_SSI__AGENT_MAX_* budget).
import Anthropic from '@anthropic-ai/sdk';
import type { Knex } from 'knex';
import type { AppConfig } from '../../config/config';
import type { BlobStore } from '../../infra/blob-store';
import type { FunnelPlanner } from '../../domain/investigations/funnel';
import { createFunnelPlanner } from './funnel-planner';

export function createFunnelPlannerFromConfig(config: AppConfig, deps: { knex: Knex; blobs: Pick<BlobStore, 'put'> }): FunnelPlanner | undefined {
  if (!config.anthropic_api_key) return undefined;
  const client = new Anthropic({ apiKey: config.anthropic_api_key, baseURL: config.anthropic_base_url, maxRetries: 1, timeout: 60_000 });
  return createFunnelPlanner({
    client,
    model: config.ssi.llm_model,
    knex: deps.knex,
    blobs: deps.blobs,
    budget: { maxSteps: config.ssi.agent_max_steps, maxTokens: config.ssi.agent_max_tokens, maxSeconds: config.ssi.agent_max_seconds },
  });
}
