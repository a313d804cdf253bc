// Type-level view of the generated OpenAPI types (src/generated/openapi.ts) in the SDK's camelCase.
import type { paths } from './generated/openapi.js';

export type { paths } from './generated/openapi.js';

/** `campaign_id` -> `campaignId` at the type level (mirrors snakeToCamel: keys that are no identifier, such as paths, stay). */
export type SnakeToCamel<S extends string> = S extends `${string}${'/' | '{' | '.' | '-' | ' ' | ':'}${string}` | `_${string}`
  ? S
  : S extends `${infer Head}_${infer Tail}`
    ? `${Head}${Capitalize<SnakeToCamel<Tail>>}`
    : S;

/** camelCase names of the opaque fields (case-keys.ts OPAQUE_FIELDS): their values keep their wire shape. */
export type OpaqueField =
  | 'scope'
  | 'options'
  | 'attributes'
  | 'context'
  | 'details'
  | 'detail'
  | 'result'
  | 'tls'
  | 'responseHeaders'
  | 'plan'
  | 'filters'
  | 'stix'
  | 'stixBundle'
  | 'objects';

type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date | Blob | FormData | ReadableStream | ArrayBuffer | Uint8Array;

/** A wire (snake_case) type as the SDK exposes it: keys camelCased deeply, opaque fields' values as they are. */
export type Camelize<T> = T extends Leaf
  ? T
  : T extends readonly (infer U)[]
    ? Camelize<U>[]
    : T extends object
      ? { [K in keyof T as K extends string ? SnakeToCamel<K> : K]: K extends string ? (SnakeToCamel<K> extends OpaqueField ? T[K] : Camelize<T[K]>) : T[K] }
      : T;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths that have an operation for this method. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: M extends keyof paths[P] ? ([NonNullable<paths[P][M]>] extends [never] ? never : P) : never;
}[keyof paths];

export type Operation<P extends keyof paths, M extends HttpMethod> = M extends keyof paths[P] ? NonNullable<paths[P][M]> : never;

type Defined<T> = [NonNullable<T>] extends [never] ? never : NonNullable<T>;
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Camelize<Defined<Q>> : never;
/** Path parameters by their template's own names (`{ scan_id }` for `{scan_id}`): never renamed. */
export type PathParamsOf<O> = O extends { parameters: { path?: infer Q } } ? Defined<Q> : never;
export type BodyOf<O> = O extends { requestBody?: { content: infer C } }
  ? C extends { 'application/json': infer B }
    ? Camelize<B>
    : C extends { 'multipart/form-data': unknown }
      ? FormData
      : never
  : never;

type JsonContent<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type SuccessStatus = 200 | 201 | 202 | 204;
/** The operation's success body (JSON), camelCased. */
export type ResponseOf<O> = O extends { responses: infer R } ? Camelize<JsonContent<R[SuccessStatus & keyof R]>> : never;

/** A schema from components.schemas by name, camelCased: `Schema<'Task'>`. */
export type Schema<N extends keyof import('./generated/openapi.js').components['schemas']> = Camelize<import('./generated/openapi.js').components['schemas'][N]>;

/** A list page as the SDK exposes it. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
