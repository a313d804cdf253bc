// What route handlers may use: the use cases' dependencies (services/service-deps.ts), built once
// per process by the composition root (app/) or a test.
import type { ServiceDeps } from '../services/service-deps';

export type AppDeps = ServiceDeps;
