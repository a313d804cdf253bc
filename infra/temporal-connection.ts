// The options of every connection to Temporal (the client's Connection, the workers'
// NativeConnection and the CLI's): address, TLS from TEMPORAL_TLS_* files and TEMPORAL_API_KEY.
import fs from 'node:fs';
import type { AppConfig } from '../config/config';
import { ConfigError } from '../config/config';

export interface TemporalTls {
  clientCertPair?: { crt: Buffer; key: Buffer };
  serverRootCACertificate?: Buffer;
  serverNameOverride?: string;
}

export interface TemporalConnectionOptions {
  address: string;
  /** Absent: plain gRPC. An object: TLS (possibly with the defaults only, as Temporal Cloud with an API key). */
  tls?: TemporalTls;
  apiKey?: string;
}

type TemporalTlsConfig = Pick<
  AppConfig,
  'temporal_tls_cert' | 'temporal_tls_key' | 'temporal_tls_ca' | 'temporal_tls_server_name' | 'temporal_api_key'
>;

/** Reads the certificate files (paths) and builds the options; a missing file is a ConfigError naming the variable. */
export function temporalConnectionOptions(
  config: TemporalTlsConfig,
  address: string,
  readFile: (file: string) => Buffer = (file) => fs.readFileSync(file),
): TemporalConnectionOptions {
  const read = (variable: string, file: string): Buffer => {
    try {
      return readFile(file);
    } catch (err) {
      const reason = err instanceof Error && 'code' in err ? String(err.code) : 'unreadable';
      throw new ConfigError(`invalid configuration:\n${variable}: cannot read ${file} (${reason})`);
    }
  };
  if (Boolean(config.temporal_tls_cert) !== Boolean(config.temporal_tls_key)) {
    throw new ConfigError('invalid configuration:\nTEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY: set both (the client certificate and its private key) or neither');
  }
  const options: TemporalConnectionOptions = { address };
  const wantsTls = Boolean(
    config.temporal_tls_cert || config.temporal_tls_ca || config.temporal_tls_server_name || config.temporal_api_key,
  );
  if (wantsTls) {
    const tls: TemporalTls = {};
    if (config.temporal_tls_cert && config.temporal_tls_key) {
      tls.clientCertPair = { crt: read('TEMPORAL_TLS_CERT', config.temporal_tls_cert), key: read('TEMPORAL_TLS_KEY', config.temporal_tls_key) };
    }
    if (config.temporal_tls_ca) tls.serverRootCACertificate = read('TEMPORAL_TLS_CA', config.temporal_tls_ca);
    if (config.temporal_tls_server_name) tls.serverNameOverride = config.temporal_tls_server_name;
    options.tls = tls;
  }
  if (config.temporal_api_key) options.apiKey = config.temporal_api_key;
  return options;
}
