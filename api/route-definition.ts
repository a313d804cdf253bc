// How a route is declared: method, path, access policy, request schemas, responses, handler.
// The access policy is mandatory: a route without one cannot be registered.
import type Koa from 'koa';
import type { z } from 'zod';
import type { AccessPolicy } from '../domain/accounts/access-policy';
import type { Principal } from '../domain/accounts/roles';
import type { AppDeps } from './app-deps';

export type { AccessPolicy } from '../domain/accounts/access-policy';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Content type when not JSON (downloads, HTML, JavaScript); several when the answer varies. */
  contentType?: string | readonly string[];
  /** Further content types of the same answer documented without a schema (a JSON page that can also come as CSV). */
  otherContentTypes?: readonly string[];
}

export interface HandlerInput<P, Q, B, H = Record<string, string | undefined>> {
  params: P;
  query: Q;
  body: B;
  /** Parsed request headers declared by `request.headers` (lowercase names); else empty. */
  headers: H;
  principal: Principal | null;
  deps: AppDeps;
  ctx: Koa.Context;
}

export interface HandlerResult {
  status?: number;
  body?: unknown;
}

export interface RouteDef<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod;
  /** OpenAPI-style path: /intakes/{id} */
  path: string;
  summary: string;
  tags: string[];
  access: AccessPolicy;
  /** `headers`: an object schema of lowercase header names (`idempotency-key`), documented as header parameters. */
  request?: {
    params?: z.ZodType<P>;
    query?: z.ZodType<Q>;
    body?: z.ZodType<B>;
    headers?: z.ZodType<Record<string, string | undefined>>;
    /**
     * A multipart/form-data body, read by the handler itself (files stream to disk): the schema
     * only documents the form. The request must be multipart/form-data (else 415).
     */
    multipart?: z.ZodType;
  };
  responses: Record<number, ResponseSpec>;
  handler: (input: HandlerInput<P, Q, B>) => Promise<HandlerResult | void>;
}

/** Identity helper that keeps the handler's input types tied to the schemas. */
export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  def: RouteDef<P, Q, B>,
): RouteDef {
  return def as unknown as RouteDef;
}
